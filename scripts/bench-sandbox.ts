// Benchmark of the sandbox: steps/s on one worker on the live-instance and replay paths, the engine alone,
// validation latency, and a baseline that spawns one Node child process per episode. Ends with one JSON line.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../runtime/paths.js';
import { Engine } from '../sandbox/engine.js';
import { SandboxPool, codeHash, makeRandom, validateSandboxOptions } from '../sandbox/index.js';

const LIBRARY_ENV = repoPath('envs', 'library', 'games', 'maze-walk.js');
const FIXTURE_ENV = repoPath('test', 'fixtures', 'sum-to-target.js');
const envPath = existsSync(LIBRARY_ENV) ? LIBRARY_ENV : FIXTURE_ENV;
const ACTIONS = envPath === LIBRARY_ENV ? ['north', 'east', 'south', 'west'] : ['1', '3', '5', '7', '9'];
const code = readFileSync(envPath, 'utf8');
const kitPath = repoPath('envs', 'kit.js');
const kit = existsSync(kitPath) ? readFileSync(kitPath, 'utf8') : undefined;
const hash = codeHash(code);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 32;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

interface Rate {
  stepsPerSec: number;
  episodesPerSec: number;
  /** Per CPU-second of this process (all its threads), or of the child processes for the baseline. */
  stepsPerCpuSec: number;
  episodesPerCpuSec: number;
}

/** CPU seconds used by this process (all threads) — the machine is shared, so wall-clock rates understate. */
const cpuSec = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** CPU seconds of waited-for children (Linux /proc; clock ticks of 1/100 s). */
function childCpuSec(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

function rate(steps: number, episodes: number, wallMs: number, cpu: number): Rate {
  const s = wallMs / 1000;
  return { stepsPerSec: steps / s, episodesPerSec: episodes / s, stepsPerCpuSec: steps / cpu, episodesPerCpuSec: episodes / cpu };
}

/** Plays episodes with random actions through the pool; `live` keeps instances under an episode id. */
async function poolRate(pool: SandboxPool, live: boolean, seconds: number): Promise<Rate> {
  let steps = 0;
  let episodes = 0;
  let nextSeed = 1;
  const end = performance.now() + seconds * 1000;
  async function lane(l: number): Promise<void> {
    const random = makeRandom(l + 1000);
    while (performance.now() < end) {
      const seed = nextSeed++;
      const episodeId = live ? `bench-${seed}` : undefined;
      await pool.reset({ codeHash: hash, seed, ...(episodeId ? { episodeId } : {}) });
      const actions: string[] = [];
      for (;;) {
        actions.push(ACTIONS[Math.floor(random() * ACTIONS.length)]!);
        const r = await pool.step({ codeHash: hash, seed, actions, ...(episodeId ? { episodeId } : {}) });
        steps++;
        if (r.done) break;
      }
      episodes++;
    }
  }
  const t0 = performance.now();
  const c0 = cpuSec();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, l) => lane(l)));
  return rate(steps, episodes, performance.now() - t0, cpuSec() - c0);
}

/** The engine alone on this thread (what one worker does between messages). */
async function engineRate(engine: Engine, seconds: number): Promise<Rate> {
  const random = makeRandom(7);
  let steps = 0;
  let episodes = 0;
  const t0 = performance.now();
  const c0 = cpuSec();
  const end = t0 + seconds * 1000;
  for (let seed = 1; performance.now() < end; seed++) {
    engine.reset(hash, code, seed, 'e');
    const actions: string[] = [];
    for (;;) {
      actions.push(ACTIONS[Math.floor(random() * ACTIONS.length)]!);
      steps++;
      if (engine.step(hash, undefined, seed, actions, 'e').done) break;
    }
    episodes++;
  }
  return rate(steps, episodes, performance.now() - t0, cpuSec() - c0);
}

const CHILD = `
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
const [envPath, kitPath, seed, actionsJson] = process.argv.slice(2);
if (kitPath !== '-') vm.runInThisContext(readFileSync(kitPath, 'utf8'));
const mod = await import(envPath);
const env = new mod.default();
const out = [env.reset(Number(seed)).observation];
for (const a of JSON.parse(actionsJson)) { const r = env.step(a); out.push(r.observation); if (r.terminated || r.truncated) break; }
process.stdout.write(JSON.stringify(out.length));
`;

/** The common subprocess design: one fresh Node process per episode. */
async function subprocessRate(episodes: number): Promise<Rate> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-bench-'));
  const script = join(dir, 'child.mjs');
  writeFileSync(script, CHILD);
  const random = makeRandom(11);
  let steps = 0;
  const t0 = performance.now();
  const c0 = childCpuSec();
  for (let e = 0; e < episodes; e++) {
    const actions = Array.from({ length: 64 }, () => ACTIONS[Math.floor(random() * ACTIONS.length)]!);
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script, envPath, kit ? kitPath : '-', String(e + 1), JSON.stringify(actions)]);
      let s = '';
      child.stdout.on('data', (d: Buffer) => (s += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(s));
    });
    steps += Number(out) - 1;
  }
  return rate(steps, episodes, performance.now() - t0, childCpuSec() - c0);
}

async function main(): Promise<void> {
  console.log(`environment: ${envPath.replace(repoPath(), '.')} (${ACTIONS.join('/')} random actions, ${CONCURRENCY} episodes in flight)`);
  const pool = new SandboxPool({ workers: 1 });
  await pool.validate(code, { seeds: 2 }); // warms the worker and caches the code by hash
  const liveRuns: Rate[] = [];
  const replayRuns: Rate[] = [];
  for (let i = 0; i < 3; i++) {
    liveRuns.push(await poolRate(pool, true, SECONDS / 3));
    replayRuns.push(await poolRate(pool, false, SECONDS / 3));
  }
  const m = (runs: Rate[], k: keyof Rate): number => median(runs.map((r) => r[k]));
  const show = (label: string, runs: Rate[]): void => {
    console.log(`${label} ${m(runs, 'stepsPerSec').toFixed(0)} steps/s wall, ${m(runs, 'stepsPerCpuSec').toFixed(0)} steps per CPU-second, `
      + `${m(runs, 'episodesPerSec').toFixed(1)} episodes/s (median of ${runs.length})`);
  };
  show('pool, 1 worker, live path:  ', liveRuns);
  show('pool, 1 worker, replay path:', replayRuns);

  const latencies: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await pool.validate(code);
    latencies.push(performance.now() - t0);
  }
  const p50 = quantile(latencies, 0.5);
  const p99 = quantile(latencies, 0.99);
  console.log(`validation (16 seeds): p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${latencies.length}`);
  await pool.close();

  const engine = await Engine.create(validateSandboxOptions({}), kit);
  await engineRate(engine, 0.3); // warm-up
  const engineRuns: Rate[] = [];
  for (let i = 0; i < 3; i++) engineRuns.push(await engineRate(engine, SECONDS / 3));
  show('engine alone (one thread, no messaging), live path:', engineRuns);

  const baseline = await subprocessRate(Number(process.env.BENCH_SUBPROCESS_EPISODES ?? 20));
  console.log(`subprocess baseline (one node process per episode): ${baseline.episodesPerSec.toFixed(1)} episodes/s wall, `
    + `${baseline.episodesPerCpuSec.toFixed(1)} episodes per CPU-second`);
  const ratio = m(liveRuns, 'episodesPerSec') / baseline.episodesPerSec;
  const ratioCpu = m(liveRuns, 'episodesPerCpuSec') / baseline.episodesPerCpuSec;
  console.log(`per episode, pool live path vs subprocess: ${ratio.toFixed(1)}x wall, ${ratioCpu.toFixed(1)}x per CPU-second (target ≥ 50x)`);
  console.log(`live path target ≥ 20000 steps/s per core: ${m(liveRuns, 'stepsPerCpuSec').toFixed(0)} per CPU-second (pool), `
    + `${m(engineRuns, 'stepsPerCpuSec').toFixed(0)} (engine alone)`);
  const r = (x: number): number => Math.round(x);
  console.log(JSON.stringify({
    bench: 'sandbox', env: envPath.replace(repoPath(), '.'),
    liveStepsPerSec: r(m(liveRuns, 'stepsPerSec')), liveStepsPerCpuSec: r(m(liveRuns, 'stepsPerCpuSec')),
    liveEpisodesPerSec: r(m(liveRuns, 'episodesPerSec')),
    replayStepsPerSec: r(m(replayRuns, 'stepsPerSec')), replayStepsPerCpuSec: r(m(replayRuns, 'stepsPerCpuSec')),
    engineStepsPerSec: r(m(engineRuns, 'stepsPerSec')), engineStepsPerCpuSec: r(m(engineRuns, 'stepsPerCpuSec')),
    validationP50Ms: r(p50), validationP99Ms: r(p99),
    subprocessEpisodesPerSec: Math.round(baseline.episodesPerSec * 10) / 10,
    subprocessEpisodesPerCpuSec: Math.round(baseline.episodesPerCpuSec * 10) / 10,
    ratioPerEpisode: Math.round(ratio * 10) / 10, ratioPerEpisodeCpu: Math.round(ratioCpu * 10) / 10,
    targets: { liveStepsPerSec: 20000, ratioPerEpisode: 50 },
  }));
}

await main();
