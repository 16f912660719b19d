#!/usr/bin/env node
// Host entry: `node runtime/start.js --role <role>` joins this machine to a cluster (same as `spade start`).
import { existsSync } from 'node:fs';
const entry = new URL('../dist/runtime/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('start.js: not built yet: run `npm run build` (or `npm ci && npm run build`) in the repository first\n');
  process.exit(2);
}
const { runCli } = await import(entry.href);
await runCli(['start', ...process.argv.slice(2)]);
