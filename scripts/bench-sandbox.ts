// Benchmark of the sandbox: steps/s through a one-worker pool on the live-instance and replay paths, the engine
// alone on one thread, validation latency, and a baseline that spawns one Node child process per episode, for a
// long-episode and a short-episode shipped environment. Rates are given per wall second and per CPU-second of the
// process (the machine is shared, so wall rates understate). Ends with one JSON line.
import { existsSync, readFileSync } from 'node:fs';
import { repoPath } from '../runtime/paths.js';
import { Engine } from '../sandbox/index.js';
import { SandboxPool, codeHash, makeRandom, validateSandboxOptions } from '../sandbox/index.js';
import {
  kit, randomAction, rate, subprocessIpcRate, subprocessPerExecutionRate, subprocessRate, type BenchEnv, type Rate,
} from './bench-sandbox-subprocess.js';

function benchEnv(label: string, parts: string[], actions: string[]): BenchEnv {
  let path = repoPath(...parts);
  if (!existsSync(path)) path = repoPath('test', 'fixtures', 'sum-to-target.js');
  const code = readFileSync(path, 'utf8');
  return { label, path, actions, code, hash: codeHash(code) };
}

const LONG = benchEnv('long', ['envs', 'library', 'games', 'maze-walk.js'], ['north', 'east', 'south', 'west']);
const SHORT = benchEnv('short', ['envs', 'library', 'reasoning', 'sum-to-target.js'], ['9', '9', '8', '7', '5']);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 9);
const SUBPROCESS_EPISODES = Number(process.env.BENCH_SUBPROCESS_EPISODES ?? 12);
const EXEC_EPISODES = Number(process.env.BENCH_EXEC_EPISODES ?? 2);
const CONCURRENCY = 32;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const rel = (p: string): string => p.replace(repoPath(), '.');

/** CPU seconds used by this process, all threads. */
const cpuSec = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Plays random-action episodes through the pool; `live` keeps instances under an episode id, else every step replays. */
async function poolRate(pool: SandboxPool, env: BenchEnv, live: boolean, seconds: number): Promise<Rate> {
  let steps = 0;
  let episodes = 0;
  let nextSeed = 1;
  const end = performance.now() + seconds * 1000;
  async function lane(l: number): Promise<void> {
    const random = makeRandom(l + 1000);
    while (performance.now() < end) {
      const seed = nextSeed++;
      const episodeId = live ? `bench-${env.label}-${seed}` : undefined;
      await pool.reset({ codeHash: env.hash, seed, ...(episodeId ? { episodeId } : {}) });
      const actions: string[] = [];
      for (;;) {
        actions.push(randomAction(env, random));
        const r = await pool.step({ codeHash: env.hash, seed, actions, ...(episodeId ? { episodeId } : {}) });
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

/** The engine alone on this thread: what one worker does between messages. */
async function engineRate(engine: Engine, env: BenchEnv, seconds: number): Promise<Rate> {
  const random = makeRandom(7);
  let steps = 0;
  let episodes = 0;
  const t0 = performance.now();
  const c0 = cpuSec();
  for (let seed = 1; performance.now() < t0 + seconds * 1000; seed++) {
    engine.reset(env.hash, env.code, seed, 'e');
    const actions: string[] = [];
    for (;;) {
      actions.push(randomAction(env, random));
      steps++;
      if (engine.step(env.hash, undefined, seed, actions, 'e').done) break;
    }
    episodes++;
  }
  return rate(steps, episodes, performance.now() - t0, cpuSec() - c0);
}

const m = (runs: Rate[], k: keyof Rate): number => median(runs.map((r) => r[k]));
function show(label: string, runs: Rate[]): void {
  console.log(`  ${label.padEnd(22)} ${m(runs, 'stepsPerSec').toFixed(0).padStart(6)} steps/s wall, ${m(runs, 'stepsPerCpuSec').toFixed(0).padStart(6)} per CPU-s; `
    + `${m(runs, 'episodesPerSec').toFixed(1)} episodes/s wall, ${m(runs, 'episodesPerCpuSec').toFixed(1)} per CPU-s (median of ${runs.length})`);
}

async function measure(pool: SandboxPool, engine: Engine, env: BenchEnv, replay: boolean) {
  console.log(`${rel(env.path)} (${env.actions.join('/')} random actions, ${CONCURRENCY} episodes in flight, 1 worker):`);
  await pool.validate(env.code, { seeds: 2 }); // warms the worker and caches the code by hash
  await poolRate(pool, env, true, 1); // creates the realms the live episodes hold (lockdown) before measuring
  const live: Rate[] = [];
  const replayed: Rate[] = [];
  for (let i = 0; i < 3; i++) {
    live.push(await poolRate(pool, env, true, SECONDS / 3));
    if (replay) replayed.push(await poolRate(pool, env, false, SECONDS / 3));
  }
  show('pool, live path:', live);
  if (replay) show('pool, replay path:', replayed);
  await engineRate(engine, env, 0.3);
  const alone: Rate[] = [];
  for (let i = 0; i < 3; i++) alone.push(await engineRate(engine, env, SECONDS / 3));
  show('engine alone:', alone);
  const sub = await subprocessRate(env, SUBPROCESS_EPISODES, makeRandom(11));
  show('subprocess per episode:', [sub]);
  const subIpc = await subprocessIpcRate(env, SUBPROCESS_EPISODES, makeRandom(11));
  show('subprocess, per-step IPC:', [subIpc]);
  const subExec = await subprocessPerExecutionRate(env, EXEC_EPISODES, makeRandom(11));
  show('subprocess per execution:', [subExec]);
  const ratio = m(live, 'episodesPerSec') / sub.episodesPerSec;
  const ratioCpu = m(live, 'episodesPerCpuSec') / sub.episodesPerCpuSec;
  const ratioIpc = m(live, 'episodesPerSec') / subIpc.episodesPerSec;
  console.log(`  per episode, pool live path vs subprocess running the whole episode: ${ratio.toFixed(1)}x wall, ${ratioCpu.toFixed(1)}x per CPU-second`);
  const ratioExec = m(live, 'episodesPerSec') / subExec.episodesPerSec;
  console.log(`  per episode, pool live path vs subprocess stepped over IPC (agent loop): ${ratioIpc.toFixed(1)}x wall`);
  console.log(`  per episode, pool live path vs one subprocess per execution (the issue's baseline): ${ratioExec.toFixed(1)}x wall (target ≥ 50x)`);
  return { live, replayed, alone, sub, subIpc, subExec, ratio, ratioCpu, ratioIpc, ratioExec };
}

async function main(): Promise<void> {
  const pool = new SandboxPool({ workers: 1 });
  const engine = await Engine.create(validateSandboxOptions({}), kit);
  const long = await measure(pool, engine, LONG, true);
  const short = await measure(pool, engine, SHORT, false);

  const latencies: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await pool.validate(LONG.code);
    latencies.push(performance.now() - t0);
  }
  const p50 = quantile(latencies, 0.5);
  const p99 = quantile(latencies, 0.99);
  console.log(`validation of ${rel(LONG.path)} (16 seeds, 1 worker): p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${latencies.length}`);
  await pool.close();
  console.log(`targets: ≥ 20000 steps/s per core on the live path; ≥ 50x the subprocess baseline (one process per execution) per episode`);

  const r = (x: number): number => Math.round(x);
  const r1 = (x: number): number => Math.round(x * 10) / 10;
  console.log(JSON.stringify({
    bench: 'sandbox', longEnv: rel(LONG.path), shortEnv: rel(SHORT.path),
    liveStepsPerSec: r(m(long.live, 'stepsPerSec')), liveStepsPerCpuSec: r(m(long.live, 'stepsPerCpuSec')),
    replayStepsPerSec: r(m(long.replayed, 'stepsPerSec')), replayStepsPerCpuSec: r(m(long.replayed, 'stepsPerCpuSec')),
    engineStepsPerSec: r(m(long.alone, 'stepsPerSec')), engineStepsPerCpuSec: r(m(long.alone, 'stepsPerCpuSec')),
    shortLiveStepsPerSec: r(m(short.live, 'stepsPerSec')), shortLiveStepsPerCpuSec: r(m(short.live, 'stepsPerCpuSec')),
    validationP50Ms: r(p50), validationP99Ms: r(p99),
    ratioPerEpisodeLong: r1(long.ratio), ratioPerEpisodeLongCpu: r1(long.ratioCpu),
    ratioPerEpisodeShort: r1(short.ratio), ratioPerEpisodeShortCpu: r1(short.ratioCpu),
    ratioPerEpisodeLongIpc: r1(long.ratioIpc), ratioPerEpisodeShortIpc: r1(short.ratioIpc),
    ratioPerEpisodeLongPerExecution: r1(long.ratioExec), ratioPerEpisodeShortPerExecution: r1(short.ratioExec),
    targets: { liveStepsPerSecPerCore: 20000, ratioPerEpisode: 50 },
  }));
}

await main();
