// Batched play of a suite with one checkpoint: every (environment, seed, arm) episode runs through the loop's own
// agent episode (actors/agent/play.ts: its prompt, sampling settings and fault handling), many at once, so their turns
// share the policy's batched sampler as in a rollout job. A fault ends its episode with return 0 and is counted.
import type { AcceptedEnv } from '../actors/loop/index.js';
import { playEpisode, type AgentDeps } from '../actors/agent/index.js';
import { isSandboxWorkerDied, type EnvSpec } from '../sandbox/index.js';

export interface PlayableEnv {
  /** Key of the environment in the report (its spec.name, made unique within the suite). */
  key: string;
  file: string;
  family: string;
  code: string;
  codeHash: string;
  spec: EnvSpec;
}

export interface EnvReturns {
  /** Per seed, in seed order; null when the arm was not played. */
  noHint: number[];
  hint: number[] | null;
  episodes: number;
  faults: number;
  /** Fault codes seen (e.g. ENV_THREW). */
  faultCodes: Record<string, number>;
}

export interface PlayProgress {
  episodes: number;
  total: number;
  turns: number;
  seconds: number;
}

export interface PlaySuiteOptions {
  seeds: number[];
  hint: boolean;
  /** Episodes in flight at once (a little above the sampler's maxBatch keeps its batch full while others step). */
  concurrency: number;
  onProgress?: (p: PlayProgress) => void;
  signal?: AbortSignal;
}

export interface PlaySuiteResult {
  envs: Map<string, EnvReturns>;
  turns: number;
  seconds: number;
}

function accepted(e: PlayableEnv): AcceptedEnv {
  return {
    envId: `eval-${e.codeHash.slice(0, 16)}`, jobId: 'eval', iteration: 0, code: e.code, codeHash: e.codeHash, spec: e.spec, family: e.family,
    parents: [], validation: { ms: 0 },
  } as AcceptedEnv;
}

export async function playSuite(envs: readonly PlayableEnv[], deps: AgentDeps, o: PlaySuiteOptions): Promise<PlaySuiteResult> {
  const out = new Map<string, EnvReturns>();
  const jobs: Array<{ env: PlayableEnv; acc: AcceptedEnv; seedIndex: number; hinted: boolean }> = [];
  for (const env of envs) {
    out.set(env.key, { noHint: o.seeds.map(() => 0), hint: o.hint ? o.seeds.map(() => 0) : null, episodes: 0, faults: 0, faultCodes: {} });
    const acc = accepted(env);
    // Seed-major order: the first episodes in flight cover all environments, so a slow module does not hold the tail.
    for (const hinted of o.hint ? [false, true] : [false]) o.seeds.forEach((_, seedIndex) => jobs.push({ env, acc, seedIndex, hinted }));
  }
  jobs.sort((a, b) => a.seedIndex - b.seedIndex || Number(a.hinted) - Number(b.hinted));
  const t0 = performance.now();
  let next = 0, done = 0, turns = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const j = jobs[next++]!;
      const seed = o.seeds[j.seedIndex]!;
      const plan = { trajId: `${j.acc.envId}/${j.hinted ? 'h' : 'n'}${seed}`, hinted: j.hinted, seed };
      // A worker the module killed twice (the pool retries once) is the module's fault too; other failures stop the run.
      const ep = await playEpisode(j.acc, plan, deps, 'eval', o.signal).catch((err: unknown) => {
        if (!isSandboxWorkerDied(err)) throw err;
        return { turns: [], return: 0, error: (err as { code: string }).code };
      });
      const r = out.get(j.env.key)!;
      r.episodes++;
      turns += ep.turns.length;
      const ret = ep.error ? 0 : ep.return;
      if (ep.error) (r.faults++, (r.faultCodes[ep.error] = (r.faultCodes[ep.error] ?? 0) + 1));
      (j.hinted ? r.hint! : r.noHint)[j.seedIndex] = ret;
      done++;
      o.onProgress?.({ episodes: done, total: jobs.length, turns, seconds: (performance.now() - t0) / 1000 });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, jobs.length)) }, worker));
  return { envs: out, turns, seconds: (performance.now() - t0) / 1000 };
}
