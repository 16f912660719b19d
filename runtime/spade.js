#!/usr/bin/env node
// The `spade` CLI entry: runs the compiled composition root in dist/ (build with `npm run build`), which hands the
// loop's roles, message catalog and commands to the runtime's command line (app/main.ts → runtime/cli.ts).
import { existsSync } from 'node:fs';
const entry = new URL('../dist/app/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('spade: not built yet: run `npm run build` (or `npm ci && npm run build`) in the repository first\n');
  process.exit(2);
}
const { runSpade } = await import(entry.href);
await runSpade(process.argv.slice(2));
