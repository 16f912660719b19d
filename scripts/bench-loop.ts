// `npm run bench:loop`: the same short self-play configuration run synchronously (η = 0) and asynchronously
// (η = 2), side by side, each as a real `node runtime/start.js --role all` host on its own embedded nats-server.
// Prints steady-state trajectories/s (after the first iteration), learner busy fraction and staleness (mean, p99, max) for both and the ratio; ends with
// one JSON line. Settings: BENCH_LOOP_ITERATIONS, BENCH_LOOP_ROUNDS, BENCH_LOOP_DESIGNS, BENCH_LOOP_K, BENCH_LOOP_SET.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../runtime/paths.js';

const ITERATIONS = Number(process.env.BENCH_LOOP_ITERATIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 3);
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
      if (code !== 0) return reject(new Error(`η=${eta} run exited ${code}:\n${err}`));
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

/** The middle value; with an even count the mean of the middle two (not the upper one, which would flatter both). */
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  process.stderr.write(`bench:loop — ${ITERATIONS} iterations × ${DESIGNS} environments × 2k=${2 * K} episodes, η ∈ {0, 2}, ${ROUNDS} rounds, alternating\n`);
  const runs: RunFigures[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const eta of r % 2 === 0 ? ETAS : [...ETAS].reverse()) {
      const f = await runOnce(eta);
      runs.push(f);
      process.stderr.write(
        `  round ${r + 1} η=${eta}: ${f.trajectoriesPerSec.toFixed(3)} trajectories/s (${f.trajectories} in ${f.seconds.toFixed(1)} s wall), learner busy ${(f.busyFraction * 100).toFixed(0)}%, staleness mean ${f.stalenessMean.toFixed(2)} p99 ${f.stalenessP99} max ${f.stalenessMax}, dropped ${f.dropped}\n`,
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
  process.stdout.write(
    [
      `η = 0 (synchronous):  ${sync.trajectoriesPerSec} trajectories/s   learner busy ${(sync.busyFraction * 100).toFixed(0)}%   staleness mean ${sync.stalenessMean} p99 ${sync.stalenessP99} max ${sync.stalenessMax}`,
      `η = 2 (asynchronous): ${async2.trajectoriesPerSec} trajectories/s   learner busy ${(async2.busyFraction * 100).toFixed(0)}%   staleness mean ${async2.stalenessMean} p99 ${async2.stalenessP99} max ${async2.stalenessMax}`,
      `async / sync throughput: ${ratio.toFixed(2)}× (target ≥ 1.3×); staleness ${bounded ? 'never above η' : 'ABOVE η'} (medians of ${ROUNDS})`,
      JSON.stringify({ bench: 'loop', iterations: ITERATIONS, designsPerIteration: DESIGNS, k: K, rounds: ROUNDS, sync, async: async2, ratio: Number(ratio.toFixed(3)), stalenessBounded: bounded }),
    ].join('\n') + '\n',
  );
}

await main();
