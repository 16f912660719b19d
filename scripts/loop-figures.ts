// Prints the figures issue 11 judges a self-play run by (experiment/loop-figures.ts) for one or more run directories:
// regret on feasible environments with its 95% interval, the designer reward's slope over iterations with its interval,
// validity, novelty, families and the frontier band. One JSON line per run.
// Usage: node dist/scripts/loop-figures.js RUN_DIR...
import { readLoopFigures } from '../experiment/index.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node dist/scripts/loop-figures.js RUN_DIR...');
  process.exit(2);
}
for (const dir of dirs) console.log(JSON.stringify({ run: dir, ...readLoopFigures(dir) }));
