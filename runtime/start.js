#!/usr/bin/env node
// Host entry: `node runtime/start.js --role <role>` joins this machine to a cluster (same as `spade start`).
process.argv.splice(2, 0, 'start');
await import('./spade.js');
