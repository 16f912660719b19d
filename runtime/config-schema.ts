// The shape of the cluster config: its schema (validated at start, errors name the field) and its type.
import * as s from './schema.js';

const positiveInt = (max = Number.MAX_SAFE_INTEGER) => s.int({ min: 1, max });

export const ROLE_CONFIG = s.object(
  {
    /** Concurrent handlers of this role on one host. */
    concurrency: positiveInt(4096),
    /** Worker threads for CPU-heavy work (sandboxes, model math); never the NATS thread. */
    threads: s.int({ min: 0, max: 1024 }),
    /** A single task taking longer than this is abandoned and retried elsewhere. */
    taskTimeoutMs: positiveInt(),
  },
  { strict: true },
);

export const CLUSTER_CONFIG = s.object(
  {
    nats: s.object(
      {
        /** NATS URLs; empty = start an embedded nats-server under the run directory. */
        servers: s.array(s.string({ pattern: /^(nats|tls|wss?):\/\/[^\s]+$|^[^\s:/]+(:\d+)?$/ })),
        user: s.optional(s.string({ min: 1 })),
        pass: s.optional(s.string()),
        token: s.optional(s.string({ min: 1 })),
        credsFile: s.optional(s.string({ min: 1 })),
        /** Per-role credentials: each connection of a host uses `<credsDir>/<role>.json` or `<role>.creds` (docs/security.md).
         *  Unset: `<run.dir>/auth` when it exists (an embedded run's). Ignored when user, token or credsFile is set. */
        credsDir: s.optional(s.string({ min: 1 })),
        tls: s.optional(
          s.object({ caFile: s.optional(s.string()), certFile: s.optional(s.string()), keyFile: s.optional(s.string()) }, { strict: true }),
        ),
        /** The embedded server: binary (else $NATS_SERVER_BIN, else PATH), port (0 = a free loopback port) and whether
         *  it requires per-role credentials (default true: generated under <run.dir>/auth, permissions per role). */
        embedded: s.object({ bin: s.optional(s.string({ min: 1 })), port: s.int({ min: 0, max: 65535 }), auth: s.optional(s.boolean()) }, { strict: true }),
      },
      { strict: true },
    ),
    host: s.object(
      {
        /** Roles this host runs; `all` = every registered role. */
        roles: s.array(s.string({ pattern: /^[a-z][a-z0-9-]*$/ }), { min: 1 }),
        /** Stable id of this host in membership; default hostname-pid. */
        id: s.optional(s.string({ pattern: /^[A-Za-z0-9_-]{1,64}$/ })),
        heartbeatMs: s.int({ min: 100, max: 600_000 }),
        /** A member whose heartbeat is older than this disappears (KV bucket TTL). */
        memberTtlMs: s.int({ min: 1_000, max: 3_600_000 }),
        /** On SIGTERM, in-flight work gets this long to finish before it is nak'ed. */
        drainTimeoutMs: s.int({ min: 0, max: 3_600_000 }),
        /** Resident memory (RSS) this host process may use, in MiB; 0 = no budget. Over `memoryShedAt` of it the host
         *  stops pulling new jobs (in-flight ones finish, the rest stay pending for other hosts) until RSS is back
         *  under `memoryResumeAt` of it (runtime/memory-gate.ts). */
        memoryBudgetMb: s.int({ min: 0, max: 1 << 24 }),
        memoryShedAt: s.number({ min: 0.05, max: 1 }),
        memoryResumeAt: s.number({ min: 0.01, max: 1 }),
        /** How often the host reads its RSS against the budget. */
        memoryCheckMs: s.int({ min: 50, max: 600_000 }),
        /** How often the host publishes its profile (where its CPU seconds go, runtime/host-profile.ts); 0 = never. */
        profileEveryMs: s.int({ min: 0, max: 3_600_000 }),
      },
      { strict: true },
    ),
    roles: s.record(ROLE_CONFIG),
    delivery: s.object(
      {
        ackWaitMs: s.int({ min: 500, max: 3_600_000 }),
        maxDeliver: s.int({ min: 1, max: 1000 }),
        /** Delay before redelivery after a failed attempt n (last value repeats). */
        backoffMs: s.array(s.int({ min: 0, max: 3_600_000 }), { min: 1 }),
        duplicateWindowMs: s.int({ min: 1_000, max: 86_400_000 }),
        maxAckPending: s.int({ min: 1, max: 1_000_000 }),
        /** How long a host keeps retrying a handler's outputs while their stream has no leader (runtime/publish.ts). */
        publishRetryMs: s.int({ min: 0, max: 3_600_000 }),
      },
      { strict: true },
    ),
    topology: s.object(
      {
        /** Stream/KV replicas: 1 for one server, 3 for a 3-node JetStream cluster. */
        replicas: s.int({ min: 1, max: 5 }),
        storage: s.literal('file', 'memory'),
        /** Retention of event streams (environments, trajectories, metrics, dead letters). */
        maxAgeHours: s.number({ min: 0.01, max: 24 * 365 }),
      },
      { strict: true },
    ),
    run: s.object(
      {
        /** Run directory: embedded server store, resolved config, metrics, environment archive, checkpoints.
         *  Empty = a new directory runs/<date-time> (and runs/latest points at it). */
        dir: s.string(),
        seed: s.int({ min: 0, max: 2 ** 31 - 1 }),
        /** Stop after this many iterations (0 = unbounded). */
        iterations: s.int({ min: 0 }),
        /** Stop after this many minutes (0 = unbounded). */
        minutes: s.number({ min: 0 }),
        /** Stop once this many policy tokens (sampled by both roles + trained) are spent (0 = unbounded). */
        budgetTokens: s.optional(s.int({ min: 0 })),
        /** Stop once the agent has played this many episodes, hinted ones included (0 = unbounded): arms compared at
         *  equal agent experience. A run has one budget, tokens or episodes. */
        budgetEpisodes: s.optional(s.int({ min: 0 })),
        /** Learning-curve snapshots of the learner's checkpoint at budget fractions 1/n .. (n−1)/n (0 = none). */
        curvePoints: s.optional(s.int({ min: 0, max: 100 })),
        /** Design jobs per iteration. */
        designsPerIteration: s.int({ min: 1, max: 10_000 }),
        /** Maximum staleness η in policy versions: 0 = synchronous training. */
        maxStaleness: s.int({ min: 0, max: 1000 }),
        /** Live view: auto (in place on a TTY, lines otherwise), tty, lines, off. */
        view: s.literal('auto', 'tty', 'lines', 'off'),
      },
      { strict: true },
    ),
    /** The self-play loop's options, sandbox limits included (loop.sandbox.limits): validated field by field by the
     *  section validator the composition root registers (defineConfigSection in runtime/config.ts). */
    loop: s.optional(s.record(s.unknownValue())),
  },
  { strict: true },
);

export type RoleConfig = s.Infer<typeof ROLE_CONFIG>;
export type ClusterConfig = s.Infer<typeof CLUSTER_CONFIG>;

/** Deep-partial form accepted by config files and overrides. */
export type ClusterConfigInput = { [K in keyof ClusterConfig]?: Partial<ClusterConfig[K]> };

/** Identity helper that gives `cluster.config.ts` its type checking. */
export function defineConfig(config: ClusterConfig): ClusterConfig {
  return config;
}
