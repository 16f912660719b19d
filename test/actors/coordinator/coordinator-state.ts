// Fixtures for tests of the pure coordinator logic: a fresh state, the iterations a list of effects issues, and the
// labeled batch of one environment.
import type { CoordinatorEffect, CoordinatorState } from '../../../actors/coordinator/coordinator-logic.js';
import { emptyStats } from '../../../actors/coordinator/run-stats.js';

/** The state of run 'r' before anything was issued, at policy version 0 (`extra` replaces fields). */
export function freshState(extra: Partial<CoordinatorState> = {}): CoordinatorState {
  return { stats: emptyStats(0), runId: 'r', nextIteration: 0, baseVersion: 0, issuing: false, finished: false, archived: new Set(), ...extra };
}

/** The iteration numbers that the 'issue' effects among `fx` send out, in order. */
export const issuedIterations = (fx: CoordinatorEffect[]): number[] => fx.flatMap((f) => (f.type === 'issue' ? f.iterations.map((i) => i.iteration) : []));

/** An accepted environment `envId` of `iteration`, labeled (no trajectories). */
export const labeledBatch = (iteration: number, envId: string) => ({
  batchId: envId, envId, iteration, accepted: true, regret: 0.5, returnHint: 1, returnNoHint: 0.5, designerReward: 0.5, trajectories: [],
});

/** The design jobs that the 'issue' effects among `fx` send out, in order. */
export const issuedJobs = (fx: CoordinatorEffect[]) => fx.flatMap((f) => (f.type === 'issue' ? f.iterations.flatMap((i) => i.jobs) : []));

/** An env.accepted body `envId` of `iteration` in family games (`extra`: designer, replayOf, …). */
export const acceptedEnv = (envId: string, iteration: number, extra: Record<string, unknown> = {}) => ({
  envId, jobId: envId, iteration, code: `// ${envId}`, codeHash: envId, spec: { name: envId, description: 'd', hint: 'h', maxTurns: 1 }, family: 'games',
  parents: [], validation: { ms: 0 }, ...extra,
}) as never;

/** A designer sample with nothing in it: marks an accepted environment as designed. */
export const designerSample = { promptTokens: new Uint8Array(0), tokens: new Uint8Array(0), logprobs: new Uint8Array(0), versions: new Uint8Array(0), text: '', finishReason: 'stop' };
