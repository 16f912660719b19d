// Synchronous, on-policy RL on a fixed set of modules, apart from the bus: each iteration plays k episodes per module
// and arm with the current weights (the loop's own agent episode), labels them as the evaluator does (group-normalised
// advantages), trains one update with the learner's PolicyTrainer and hands the weights straight to the sampler.
// What it answers: can the learner's objective and optimizer raise the agent's return on environments it trains on,
// with no staleness, no weight sync and no designer? Prints one line per iteration and one JSON line at the end.
// Usage: npm run probe:rl -- [--modules FILE,DIR,…] [--checkpoint model/checkpoints/base] [--iterations 40] [--k 8]
//          [--lr 1e-4] [--temperature 0.3] [--sample-temperature true] [--epochs 1] [--objective behaviour] [--seed 1]
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { planEpisodes, playEpisode } from '../actors/agent/index.js';
import { agentAdvantages, validateEvaluatorOptions } from '../actors/evaluator/index.js';
import { PolicyTrainer, trajectoryRows } from '../actors/learner/index.js';
import { PolicyService, validateLoopOptions, type AcceptedEnv, type Episode, type Labeled } from '../actors/loop/index.js';
import { AdamW, ModelSession, loadModel } from '../model/index.js';
import { repoPath } from '../runtime/paths.js';
import { SandboxPool } from '../sandbox/index.js';

/** The library's small-model families (envs/library/README.md): optimal actions a 3.5 M-parameter model can learn. */
const SMALL_FAMILIES = ['games/step-to-mark.js', 'games/window-search.js', 'reasoning/door-code.js', 'reasoning/max-pick.js', 'tools/ticket-close.js'];

const { values: a } = parseArgs({
  options: {
    modules: { type: 'string', default: SMALL_FAMILIES.map((f) => repoPath('envs', 'library', f)).join(',') }, checkpoint: { type: 'string', default: repoPath('model', 'checkpoints', 'base') },
    iterations: { type: 'string', default: '40' }, k: { type: 'string', default: '8' }, lr: { type: 'string', default: '1e-4' },
    temperature: { type: 'string', default: '0.3' }, 'sample-temperature': { type: 'string', default: 'true' }, epochs: { type: 'string', default: '1' },
    objective: { type: 'string', default: 'behaviour' }, seed: { type: 'string', default: '1' }, hinted: { type: 'string', default: 'true' },
  },
});
const iterations = Number(a.iterations), k = Number(a.k), lr = Number(a.lr), epochs = Number(a.epochs), seed0 = Number(a.seed);
const walk = (d: string): string[] =>
  statSync(d).isDirectory() ? readdirSync(d).sort().flatMap((f) => walk(join(d, f))) : d.endsWith('.js') ? [d] : [];
const files = a.modules!.split(',').flatMap((m) => walk(resolve(m)));

const loop = validateLoopOptions({});
loop.agent = { ...loop.agent, temperature: Number(a.temperature) };
const sandbox = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
const envs: AcceptedEnv[] = [];
for (const f of files) {
  const code = readFileSync(f, 'utf8');
  const r = await sandbox.validate(code, { seeds: 4 });
  if (!r.ok || !r.spec) throw new Error(`${f} does not validate: ${r.failed}`);
  envs.push({ envId: `probe-${envs.length}-${r.spec.name}`.replace(/[^a-z0-9-]+/gi, '-'), jobId: 'probe', iteration: 0, code, codeHash: r.codeHash, spec: r.spec, family: 'unknown', parents: [], validation: { ms: 0 } } as AcceptedEnv);
}
const policy = await PolicyService.open({ policy: { ...loop.policy, checkpoint: resolve(a.checkpoint!), missingCheckpoint: 'fail', weightSync: false }, conn: null });
const ck = await loadModel(resolve(a.checkpoint!));
const session = await ModelSession.create(ck.model, { graphs: ['train', 'score'], allowSpinning: false });
const trainer = new PolicyTrainer(session, ck.params, new AdamW({ schedule: { peakLr: lr, warmupSteps: 5, decaySteps: 100_000, minLr: lr / 10 }, weightDecay: 0, maxGradNorm: 1 }), {
  kind: a.objective as 'behaviour' | 'decoupled', clipEps: 0.2, tisCap: 2, epochs, microBatchTokens: 2048, sampleTemperature: a['sample-temperature'] === 'true',
});
const evaluator = validateEvaluatorOptions({ agentEpisodes: a.hinted === 'true' ? 'all' : 'no-hint' });
const curve: Array<Record<string, number>> = [];
const t0 = performance.now();
for (let it = 0; it < iterations; it++) {
  const groups = await Promise.all(envs.map(async (env) => {
    const plans = planEpisodes({ env, k, seedBase: seed0 + 1000 * it } as Parameters<typeof planEpisodes>[0]);
    return Promise.all(plans.map((p) => playEpisode(env, p, { policy, sandbox, options: loop }, `${it}`)));
  }));
  const labeled: Labeled[] = groups.flatMap((eps: Episode[]) => agentAdvantages(eps, evaluator).map(({ episode, advantage }) => ({ trajId: episode.trajId, role: 'agent' as const, samples: episode.turns, advantage, reward: episode.return })));
  const rows = labeled.filter((l) => l.advantage !== 0).flatMap((l) => trajectoryRows(l, { contextLength: ck.model.contextLength, vocab: ck.model.vocab }));
  const line: Record<string, number> = { iteration: it };
  const mean = (xs: number[]) => (xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : NaN);
  envs.forEach((env, i) => {
    line[`${env.spec.name}:n`] = mean(groups[i]!.filter((e) => !e.hinted).map((e) => e.return));
    line[`${env.spec.name}:h`] = mean(groups[i]!.filter((e) => e.hinted).map((e) => e.return));
  });
  line['all:n'] = mean(groups.flat().filter((e) => !e.hinted).map((e) => e.return));
  line['all:h'] = mean(groups.flat().filter((e) => e.hinted).map((e) => e.return));
  if (rows.length > 0) {
    const u = await trainer.update(rows);
    Object.assign(line, { rows: rows.length, clip: u.clipFraction, ratio: u.meanRatio, gradNorm: u.gradNorm, nll: u.byRole.agent.entropy });
    policy.setWeights(new Map([...trainer.weights].map(([n, w]) => [n, w.slice()])), it + 1);
  }
  curve.push(line);
  console.log(Object.entries(line).map(([key, v]) => `${key} ${Number.isInteger(v) ? v : v.toFixed(3)}`).join('  '));
}
const q = Math.max(1, Math.floor(curve.length / 4));
const quarter = (key: string, i: number) => curve.slice(i * q, (i + 1) * q).reduce((s, l) => s + (l[key] ?? 0), 0) / q;
console.log(JSON.stringify({
  script: 'rl-probe', modules: files.map((f) => relative(process.cwd(), f)), iterations, k, lr, epochs, temperature: loop.agent.temperature,
  sampleTemperature: a['sample-temperature'] === 'true', objective: a.objective, seconds: +((performance.now() - t0) / 1000).toFixed(0),
  quartersNoHint: [0, 1, 2, 3].map((i) => +quarter('all:n', i).toFixed(3)), quartersHint: [0, 1, 2, 3].map((i) => +quarter('all:h', i).toFixed(3)), curve,
}));
await policy.close();
await session.release();
await sandbox.close();
