#!/usr/bin/env node
// The `spade` CLI entry: runs the compiled TypeScript in dist/ (build with `npm run build`).
import { existsSync } from 'node:fs';
const entry = new URL('../dist/runtime/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('spade: not built yet: run `npm run build` (or `npm ci && npm run build`) in the repository first\n');
  process.exit(2);
}
const { runCli } = await import(entry.href);
await runCli(process.argv.slice(2));
