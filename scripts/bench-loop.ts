// `npm run bench:loop`: the spade arm against the fixed arm (`--compare arms`, the default) or the same fixed-pool
// loop synchronous (η = 0) against asynchronous (η = 2) (`--compare eta`). Every run is a real
// `node runtime/start.js --role all` host on its own embedded nats-server; rounds alternate the order.
//   arms  both arms of an experiment preset (`--preset reference-knobs`: the five small families, the designer writing
//         knob edits, from model/checkpoints/base-knobs) to the same agent-episode budget (`--episodes 3000`). Per
//         arm: steady agent episodes/s and learner updates/min, the cores' utilisation (CPU seconds of the host's
//         process tree over wall × cores), agent share, learner busy; ratios spade / fixed. Medians of `--rounds 3`.
//   eta   steady trajectories/s, learner busy fraction and staleness (mean, p99, max) for both and the ratio.
//         Settings: BENCH_LOOP_ITERATIONS, BENCH_LOOP_ROUNDS, BENCH_LOOP_DESIGNS, BENCH_LOOP_K, BENCH_LOOP_SET (also read by
//         the arms comparison: extra `--set` entries for every run, ';'-separated).
// Prints a table, then one JSON line (`--json`: the table goes to stderr).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { armArgs, resolveExperimentConfig, type ArmName } from '../experiment/index.js';
import { BenchError, BenchOptionError } from '../bench/errors.js';
import { repoPath } from '../runtime/paths.js';
import { armRatios, armRunFigures, armSummary, median, type ArmRunFigures } from './loop-arm-figures.js';
import { pollTreeCpu } from './process-tree-cpu.js';
import { profileTable } from '../actors/coordinator/run-profile.js';

const { values: a } = parseArgs({
  options: {
    compare: { type: 'string', default: 'arms' }, preset: { type: 'string', default: 'reference-knobs' }, episodes: { type: 'string', default: '3000' },
    rounds: { type: 'string' }, seed: { type: 'string', default: '1' }, json: { type: 'boolean', default: false },
  },
});
const say = (s: string): void => void (a.json ? process.stderr : process.stdout).write(s + '\n');

const ITERATIONS = Number(process.env.BENCH_LOOP_ITERATIONS ?? 10);
const ROUNDS = Number(a.rounds ?? process.env.BENCH_LOOP_ROUNDS ?? 3);
const DESIGNS = Number(process.env.BENCH_LOOP_DESIGNS ?? 4);
const K = Number(process.env.BENCH_LOOP_K ?? 4);
const ETAS = [0, 2];

/** The shared configuration: fixed environments (throughput, not designer quality, is measured here) whose
 *  returns vary even for an untrained policy, so advantages are non-zero and the learner really trains. */
const SETTINGS = [
  'loop.ablations.fixedEnvs=true',
  `loop.library=${JSON.stringify(process.env.BENCH_LOOP_LIBRARY ?? repoPath('test/fixtures/loop-library'))}`,
  `loop.k=${K}`,
  'loop.agent.maxTurns=8',
  'loop.agent.maxTokens=16',
  `run.designsPerIteration=${DESIGNS}`,
  'run.view="off"',
  'roles.sandbox.threads=1',
  // Learner and samplers get one core each, as async RL systems give them separate devices: the question is
  // whether the learner's work overlaps the samplers' (η = 2) or waits for it (η = 0).
  `loop.policy.threads=${process.env.BENCH_LOOP_SAMPLER_THREADS ?? 1}`,
  `loop.learner.host.threads=${process.env.BENCH_LOOP_LEARNER_THREADS ?? 1}`,
  // Extra `--set` entries for both runs, separated by ';' (e.g. BENCH_LOOP_SET='loop.learner.host.ownThread=false').
  ...(process.env.BENCH_LOOP_SET ?? '').split(';').map((x) => x.trim()).filter((x) => x.length > 0),
];

interface RunFigures {
  eta: number;
  seconds: number;
  trajectories: number;
  trajectoriesPerSec: number;
  busyFraction: number;
  stalenessMean: number;
  stalenessP99: number;
  stalenessMax: number;
  dropped: number;
}

function runOnce(eta: number): Promise<RunFigures> {
  const dir = mkdtempSync(join(tmpdir(), `spade-bench-loop-${eta}-`));
  const args = [repoPath('runtime/start.js'), '--role', 'all', '--run-dir', dir, '--iterations', String(ITERATIONS), '--set', `run.maxStaleness=${eta}`, ...SETTINGS.flatMap((s) => ['--set', s])];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: repoPath(), env: { ...process.env, SPADE_NATS_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (code !== 0) return reject(new BenchError(`η=${eta} run exited ${code}:\n${err}`, { code: 'BENCH_RUN' }));
      const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
      const last = lines.filter((l) => l.event === 'final').pop() ?? lines.pop()!;
      // Steady state: from the end of the first iteration to the end of the last (start-up — model loading,
      // sandbox and session creation — is the same for both and would only dilute the difference).
      const its = lines.filter((l) => l.event === 'iteration');
      const first = its[0]!;
      const end = its[its.length - 1]!;
      const steady = its.length >= 2 ? (end.trajectories - first.trajectories) / ((end.ts - first.ts) / 1000) : last.trajectoriesPerSec;
      rmSync(dir, { recursive: true, force: true });
      resolve({
        eta,
        seconds,
        trajectories: last.trajectories,
        trajectoriesPerSec: steady,
        busyFraction: last.learner.busyFraction,
        stalenessMean: last.learner.stalenessMean,
        stalenessP99: last.learner.stalenessP99,
        stalenessMax: last.learner.stalenessMax,
        dropped: last.learner.dropped,
      });
    });
  });
}

async function compareEta(): Promise<void> {
  say(`bench:loop — ${ITERATIONS} iterations × ${DESIGNS} environments × 2k=${2 * K} episodes, η ∈ {0, 2}, ${ROUNDS} rounds, alternating`);
  const runs: RunFigures[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const eta of r % 2 === 0 ? ETAS : [...ETAS].reverse()) {
      const f = await runOnce(eta);
      runs.push(f);
      say(
        `  round ${r + 1} η=${eta}: ${f.trajectoriesPerSec.toFixed(3)} trajectories/s (${f.trajectories} in ${f.seconds.toFixed(1)} s wall), learner busy ${(f.busyFraction * 100).toFixed(0)}%, staleness mean ${f.stalenessMean.toFixed(2)} p99 ${f.stalenessP99} max ${f.stalenessMax}, dropped ${f.dropped}`,
      );
    }
  }
  const by = (eta: number) => runs.filter((x) => x.eta === eta);
  const summary = (eta: number) => ({
    trajectoriesPerSec: Number(median(by(eta).map((x) => x.trajectoriesPerSec)).toFixed(4)),
    busyFraction: Number(median(by(eta).map((x) => x.busyFraction)).toFixed(3)),
    stalenessMean: Number(median(by(eta).map((x) => x.stalenessMean)).toFixed(3)),
    stalenessP99: Math.max(...by(eta).map((x) => x.stalenessP99)),
    stalenessMax: Math.max(...by(eta).map((x) => x.stalenessMax)),
    dropped: by(eta).reduce((a, x) => a + x.dropped, 0),
  });
  const sync = summary(0);
  const async2 = summary(2);
  const ratio = async2.trajectoriesPerSec / sync.trajectoriesPerSec;
  const bounded = sync.stalenessMax <= 0 && async2.stalenessMax <= 2;
  say(`η = 0 (synchronous):  ${sync.trajectoriesPerSec} trajectories/s   learner busy ${(sync.busyFraction * 100).toFixed(0)}%   staleness mean ${sync.stalenessMean} p99 ${sync.stalenessP99} max ${sync.stalenessMax}`);
  say(`η = 2 (asynchronous): ${async2.trajectoriesPerSec} trajectories/s   learner busy ${(async2.busyFraction * 100).toFixed(0)}%   staleness mean ${async2.stalenessMean} p99 ${async2.stalenessP99} max ${async2.stalenessMax}`);
  say(`async / sync throughput: ${ratio.toFixed(2)}× (target ≥ 1.3×); staleness ${bounded ? 'never above η' : 'ABOVE η'} (medians of ${ROUNDS})`);
  console.log(JSON.stringify({ bench: 'loop', iterations: ITERATIONS, designsPerIteration: DESIGNS, k: K, rounds: ROUNDS, sync, async: async2, ratio: Number(ratio.toFixed(3)), stalenessBounded: bounded }));
}

/** One arm run to the episode budget; figures from its metrics and the CPU of its process tree. */
function runArm(preset: string, arm: ArmName, episodes: number, seed: number): Promise<ArmRunFigures> {
  const dir = mkdtempSync(join(tmpdir(), `spade-bench-loop-${arm}-`));
  const c = resolveExperimentConfig(preset, { budgetEpisodes: episodes, budgetTokens: 0 });
  // No curve checkpoints and no live view: only the loop's own work is timed.
  // BENCH_LOOP_SET (';'-separated) adds --set entries to both arms, as in the η comparison.
  const extra = (process.env.BENCH_LOOP_SET ?? '').split(';').map((x) => x.trim()).filter((x) => x.length > 0).flatMap((x) => ['--set', x]);
  const args = [...armArgs(c, arm, seed, dir), '--set', 'run.curvePoints=0', '--set', 'run.view="off"', ...extra];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [repoPath('runtime/start.js'), ...args], { cwd: repoPath(), env: { ...process.env, SPADE_NATS_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const cpu = pollTreeCpu(child.pid!);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallSec = (performance.now() - t0) / 1000;
      const { cpuSec: cpuRead, peakRssMb } = cpu.stop();
      const cpuSec = cpuRead ?? NaN;
      try {
        if (code !== 0) throw new BenchError(`the ${arm} run exited ${code}:\n${err}`, { code: 'BENCH_RUN' });
        const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
        resolve(armRunFigures({ arm: arm === 'spade' ? 'spade' : 'fixed', lines, wallSec, cpuSec, cores: cpus().length, peakRssMb }));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

async function compareArms(): Promise<void> {
  const episodes = Number(a.episodes), seed = Number(a.seed), preset = a.preset!;
  if (!Number.isSafeInteger(episodes) || episodes < 100) throw new BenchOptionError('--episodes', 'an integer ≥ 100', a.episodes);
  if (!Number.isSafeInteger(ROUNDS) || ROUNDS < 1) throw new BenchOptionError('--rounds', 'an integer ≥ 1', a.rounds);
  say(`bench:loop — spade vs fixed-envs (preset ${preset}), ${episodes} agent episodes a run, ${ROUNDS} rounds, alternating, ${cpus().length} cores`);
  const runs: Record<'fixed' | 'spade', ArmRunFigures[]> = { fixed: [], spade: [] };
  const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(0)}%`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const arm of r % 2 === 0 ? (['fixed-envs', 'spade'] as const) : (['spade', 'fixed-envs'] as const)) {
      const f = await runArm(preset, arm, episodes, seed);
      runs[arm === 'spade' ? 'spade' : 'fixed'].push(f);
      say(`  round ${r + 1} ${arm}: ${f.agentEpisodesPerSec.toFixed(2)} agent episodes/s, ${f.updatesPerMin.toFixed(1)} updates/min, ${f.wallSec.toFixed(0)} s wall, cpu ${f.cpuSec.toFixed(0)} s (${pct(f.utilisation)}), agent share ${pct(f.agentShare)}, learner busy ${pct(f.learnerBusy)}, peak RSS ${f.peakRssMb === null ? '—' : `${f.peakRssMb.toFixed(0)} MiB`}`);
    }
  }
  const fixed = armSummary(runs.fixed), spade = armSummary(runs.spade), ratios = armRatios(runs.fixed, runs.spade);
  const row = (name: string, s: typeof fixed): string =>
    `| ${name} | ${s.agentEpisodesPerSec.toFixed(2)} (${s.agentEpisodesPerSecRange.map((x) => x.toFixed(2)).join('–')}) | ${s.updatesPerMin.toFixed(1)} | ${pct(s.utilisation)} | ${s.cpuSec.toFixed(0)} | ${s.wallSec.toFixed(0)} | ${pct(s.agentShare)} | ${pct(s.learnerBusy)} | ${s.stalenessMax ?? '—'} | ${s.peakRssMb === null ? '—' : s.peakRssMb.toFixed(0)} |`;
  say('| arm | agent episodes/s (range) | updates/min | utilisation | cpu s | wall s | agent share | learner busy | staleness max | peak RSS MiB (highest round) |');
  say('|---|---|---|---|---|---|---|---|---|---|');
  say(row('fixed-envs', fixed));
  say(row('spade', spade));
  for (const [name, x] of [['fixed-envs', fixed], ['spade', spade]] as const) {
    say(`\nwhere ${name}'s CPU seconds went (${ROUNDS} rounds added up):`);
    for (const line of x.profile ? profileTable(x.profile) : ['(no profile: the hosts published none)']) say(line);
  }
  say(`spade / fixed: ${ratios.spadeVsFixed.toFixed(2)}× agent episodes/s (round pairs ${ratios.pairs.map((x) => x.toFixed(2)).join(', ')}), ${ratios.updatesSpadeVsFixed.toFixed(2)}× updates/min (medians of ${ROUNDS})`);
  console.log(JSON.stringify({ bench: 'loop', compare: 'arms', preset, episodes, rounds: ROUNDS, cores: cpus().length, fixed, spade, ratios }));
}

if (a.compare === 'eta') await compareEta();
else if (a.compare === 'arms') await compareArms();
else throw new BenchOptionError('--compare', 'arms or eta', a.compare);
