// Synchronous, on-policy RL apart from the bus: does the learner raise the agent's no-hint return on the library's
// small families at their shipped settings? The start and end weights are played on the same fresh seeds; between
// them the probe trains on a curriculum over the families' knob settings that it picks by the agent's returns
// (probe/settings-buffer.ts), or on the shipped modules alone (--curriculum none). Prints one line per update
// (stderr with --json) and ends with one JSON line: { before, after, gainNoHint, perModule, episodes, updates, seconds, … }.
// Usage: npm run probe:rl -- [--minutes 40] [--json] [--iterations N] [--k 16] [--lr 2e-4] [--advantage std|mean] [--kl 0]
//          [--hinted true|false] [--curriculum settings|none] [--anchor true] [--slots 3] [--children 1] [--eval-seeds 128]
//          [--modules FILE,DIR,…] [--checkpoint model/checkpoints/base] [--save DIR] [--out FILE] [--seed 1]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { repoPath } from '../runtime/paths.js';
import { runProbe, validateProbeOptions, type ProbeLine } from '../probe/index.js';

/** The library's small-model families (envs/library/README.md): optimal actions a 3.5 M-parameter model can learn. */
const SMALL_FAMILIES = ['games/step-to-mark.js', 'games/window-search.js', 'reasoning/door-code.js', 'reasoning/max-pick.js', 'tools/ticket-close.js'];

const { values: a } = parseArgs({
  options: {
    modules: { type: 'string' }, checkpoint: { type: 'string' }, minutes: { type: 'string' }, iterations: { type: 'string' }, k: { type: 'string' },
    lr: { type: 'string' }, kl: { type: 'string' }, temperature: { type: 'string' }, 'sample-temperature': { type: 'string' }, epochs: { type: 'string' },
    objective: { type: 'string' }, hinted: { type: 'string' }, advantage: { type: 'string' }, curriculum: { type: 'string' }, anchor: { type: 'string' }, slots: { type: 'string' },
    children: { type: 'string' }, spread: { type: 'string' }, 'eval-seeds': { type: 'string' }, save: { type: 'string' }, out: { type: 'string' },
    seed: { type: 'string' }, threads: { type: 'string' }, json: { type: 'boolean', default: false },
  },
});
const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
const bool = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : v === 'true');
const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
const options = validateProbeOptions({
  modules: a.modules?.split(',') ?? SMALL_FAMILIES.map((f) => repoPath('envs', 'library', f)),
  checkpoint: a.checkpoint ?? repoPath('model', 'checkpoints', 'base'),
  ...defined({
    minutes: num(a.minutes), k: num(a.k), lr: num(a.lr), kl: num(a.kl), temperature: num(a.temperature), sampleTemperature: bool(a['sample-temperature']),
    epochs: num(a.epochs), objective: a.objective as 'behaviour' | undefined, hinted: bool(a.hinted), advantage: a.advantage as 'std' | undefined,
    curriculum: a.curriculum as 'settings' | undefined, anchor: bool(a.anchor), slots: num(a.slots), children: num(a.children), spread: num(a.spread),
    evalSeeds: num(a['eval-seeds']), threads: num(a.threads), save: a.save, seed: num(a.seed),
  }),
  // With a time budget the iterations are only a cap.
  iterations: num(a.iterations) ?? (a.minutes !== undefined ? 1_000_000 : 40),
});
const say = (s: string): void => void (a.json ? process.stderr : process.stdout).write(s + '\n');
const fmt = (l: ProbeLine): string =>
  Object.entries(l).map(([key, v]) => `${key} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : v}`).join('  ');
const result = await runProbe(options, (l) => say(fmt(l)));
const { curve, returns, played, ...summary } = result;
if (a.out) writeFileSync(a.out, JSON.stringify({ script: 'rl-probe', options, ...result }, null, 1) + '\n');
if (!a.json) for (const [m, g] of Object.entries(result.perModule)) say(`${m}: ${g.before.toFixed(3)} → ${g.after.toFixed(3)}  gain ${g.gainNoHint.mean.toFixed(3)} [${g.gainNoHint.ci95.map((x) => x.toFixed(3)).join(', ')}]`);
console.log(JSON.stringify({ script: 'rl-probe', options: { ...options, modules: options.modules.length }, ...summary, curvePoints: curve.length }));
