// Pure scheduling logic of the run: which design jobs to issue next. Iteration i (a batch of
// `designsPerIteration` design jobs) may start once the policy version is at least i − η, so every
// trajectory is sampled at most η versions behind the learner (η = 0: synchronous training,
// each iteration waits for the weights trained on the previous one).

export interface ScheduleOptions {
  /** Design jobs per iteration. */
  designsPerIteration: number;
  /** Maximum staleness η in policy versions (the async level). */
  maxStaleness: number;
  /** Stop issuing after this many iterations (Infinity = unbounded). */
  iterations: number;
}

export interface ScheduleState {
  /** Next iteration to issue. */
  nextIteration: number;
  /** Current policy version (weights published by the learner). */
  policyVersion: number;
  /** The version at the start of this run (resume): versions count from here. */
  baseVersion: number;
}

/** The iterations that may be issued now, in order. */
export function issuable(state: ScheduleState, opts: ScheduleOptions): number[] {
  const out: number[] = [];
  const versionsSinceStart = state.policyVersion - state.baseVersion;
  for (let i = state.nextIteration; i < opts.iterations && i - versionsSinceStart <= opts.maxStaleness; i++) out.push(i);
  return out;
}

/** Job ids of one iteration; deterministic so a re-issued iteration is deduplicated by Nats-Msg-Id. */
export function jobIds(runId: string, iteration: number, designsPerIteration: number): string[] {
  return Array.from({ length: designsPerIteration }, (_, j) => `${runId}-it${iteration}-d${j}`);
}

/** The seed of one design job: distinct per (run seed, iteration, job). */
export function jobSeed(runSeed: number, iteration: number, j: number): number {
  let h = (runSeed ^ 0x9e3779b9) >>> 0;
  for (const x of [iteration, j]) {
    h = Math.imul(h ^ x, 0x85ebca6b) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
  }
  return h & 0x7fffffff;
}

/** The oldest policy version iteration i may be sampled with: samplers wait for it before they start. */
export function minVersionFor(iteration: number, baseVersion: number, maxStaleness: number): number {
  return baseVersion + Math.max(0, iteration - maxStaleness);
}
