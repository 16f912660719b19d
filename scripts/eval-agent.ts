// Plays every library environment with a checkpoint as the agent (unseen seeds, with and without the hint) and prints
// the mean return per environment and overall; ends with one JSON line of the figures.
// Superseded by `spade eval CHECKPOINT --suite envs/library --seeds N` (docs/evaluation.md: any suite, intervals, paired
// comparisons, faults reported); kept as the speed baseline it is compared with.
// Usage: node dist/scripts/eval-agent.js [--checkpoint model/checkpoints/base --seeds 1001,1002 --temperature 1]
import { parseArgs } from 'node:util';
import { evaluateAgent } from '../warmstart/index.js';
import { repoPath } from '../runtime/paths.js';

const { values: a } = parseArgs({
  options: {
    checkpoint: { type: 'string', default: repoPath('model', 'checkpoints', 'base') }, seeds: { type: 'string' }, temperature: { type: 'string' },
    'max-tokens': { type: 'string' }, 'max-prompt-tokens': { type: 'string' },
  },
});
const num = (k: keyof typeof a): number | undefined => (a[k] === undefined ? undefined : Number(a[k]));
const r = await evaluateAgent({
  checkpoint: a.checkpoint!, seeds: a.seeds?.split(',').map(Number), temperature: num('temperature'), maxTokens: num('max-tokens'), maxPromptTokens: num('max-prompt-tokens'),
} as Parameters<typeof evaluateAgent>[0]);
for (const e of r.envs) console.log(`${e.family.padEnd(10)} ${e.env.padEnd(20)} hint ${e.hint.toFixed(2)}  no hint ${e.noHint.toFixed(2)}`);
console.log(`mean return: hint ${r.meanHint.toFixed(3)}, no hint ${r.meanNoHint.toFixed(3)} (${r.envs.length} envs x ${r.options.seeds.length} seeds, temperature ${r.options.temperature}); ${r.turns} turns in ${r.seconds.toFixed(0)} s`);
console.log(JSON.stringify({
  script: 'eval-agent', checkpoint: r.options.checkpoint, seeds: r.options.seeds, temperature: r.options.temperature, meanHint: +r.meanHint.toFixed(3),
  meanNoHint: +r.meanNoHint.toFixed(3), envs: r.envs.map((e) => ({ ...e, hint: +e.hint.toFixed(3), noHint: +e.noHint.toFixed(3) })), turns: r.turns, seconds: +r.seconds.toFixed(1),
}));
