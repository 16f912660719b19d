// The cluster's one typed config: defaults for every host. Override per host with
// `--config FILE`, environment variables (SPADE_*) or CLI flags; see docs/configuration.md.
import { defineConfig } from './runtime/config-schema.js';

const role = (concurrency: number, threads = 0) => ({ concurrency, threads, taskTimeoutMs: 600_000 });

export default defineConfig({
  nats: { servers: [], embedded: { port: 0, auth: true } },
  // memoryBudgetMb 0: no budget by default (docs/reliability.md, resource limits, says why); e.g. --set host.memoryBudgetMb=6000
  host: { roles: ['all'], heartbeatMs: 2_000, memberTtlMs: 10_000, drainTimeoutMs: 20_000, memoryBudgetMb: 0, memoryShedAt: 0.9, memoryResumeAt: 0.75, memoryCheckMs: 1_000, profileEveryMs: 10_000 },
  roles: {
    echo: role(8),
    sandbox: role(16, 2),
    designer: role(2),
    agent: role(8),
    evaluator: role(4),
    learner: role(1, 2),
    coordinator: role(1),
  },
  delivery: { ackWaitMs: 30_000, maxDeliver: 5, backoffMs: [500, 2_000, 5_000, 15_000], duplicateWindowMs: 120_000, maxAckPending: 1_000, publishRetryMs: 30_000 },
  topology: { replicas: 1, storage: 'file', maxAgeHours: 24 * 7 },
  run: { dir: '', seed: 0, iterations: 0, minutes: 0, budgetTokens: 0, curvePoints: 0, designsPerIteration: 4, maxStaleness: 2, view: 'auto' },
  // Self-play options (actors/loop/options.ts: k, memory, designer/agent sampling, ablations, policy, corpus,
  // sandbox, evaluator, learner); empty = their defaults. E.g. --set loop.ablations.fixedEnvs=true.
  // loop.sandbox.limits holds the limits of every sandbox pool (sandbox/options.ts), e.g.
  // --set loop.sandbox.limits.callTimeoutMs=200
  loop: {},
});
