// The JetStream topology created idempotently at start on the server: the streams and durable pull consumers that
// topology-decls.ts declares, the KV buckets and the weights object store.
// Works against nats-server 2.9.x (no 2.10-only features such as multi-filter consumers).
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type StreamConfig } from '@nats-io/jetstream';
import type { ClusterConfig } from './config-schema.js';
import type { Connection } from './connection.js';
import { TopologyError } from './errors.js';
import { untilAnswered, type UntilAnsweredOptions } from './jetstream-retry.js';
import { BUCKETS, NATS_SUBJECTS, OBJECT_STORES, durableName } from './subjects.js';
import { CONSUMER_DECLS, STREAM_DECLS, TRANSIENT_MAX_AGE_MS, TRANSIENT_MAX_BYTES, type ConsumerDecl, type StreamDecl } from './topology-decls.js';

const NANOS = 1_000_000;

/** topology.maxAgeHours in whole milliseconds: the retention of event streams and of design outcomes. */
const maxAgeMs = (cfg: ClusterConfig): number => Math.round(cfg.topology.maxAgeHours * 3600 * 1000);

export function streamConfig(decl: StreamDecl, cfg: ClusterConfig): Partial<StreamConfig> & { name: string } {
  const base = {
    name: decl.name,
    subjects: decl.subjects,
    storage: cfg.topology.storage === 'memory' ? StorageType.Memory : StorageType.File,
    num_replicas: cfg.topology.replicas,
    duplicate_window: cfg.delivery.duplicateWindowMs * NANOS,
    discard: DiscardPolicy.Old,
  };
  if (decl.kind === 'workqueue') return { ...base, retention: RetentionPolicy.Workqueue };
  if (decl.kind === 'transient') {
    return { ...base, storage: StorageType.Memory, num_replicas: 1, retention: RetentionPolicy.Limits, max_age: TRANSIENT_MAX_AGE_MS * NANOS, duplicate_window: TRANSIENT_MAX_AGE_MS * NANOS, max_bytes: TRANSIENT_MAX_BYTES };
  }
  return { ...base, retention: RetentionPolicy.Limits, max_age: maxAgeMs(cfg) * NANOS };
}

/** Creates or updates one durable consumer for `role` on `stream`. */
export async function ensureConsumer(conn: Connection, decl: ConsumerDecl, cfg: ClusterConfig): Promise<string> {
  const durable = durableName(decl.role);
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: decl.filter,
    ack_wait: cfg.delivery.ackWaitMs * NANOS,
    // One more than the host's limit: the host dead-letters on the last delivery, even after a crash loop.
    max_deliver: cfg.delivery.maxDeliver + 1,
    max_ack_pending: cfg.delivery.maxAckPending,
    num_replicas: cfg.topology.replicas,
  };
  try {
    await conn.jsm.consumers.info(decl.stream, durable);
    await conn.jsm.consumers.update(decl.stream, durable, {
      ack_wait: config.ack_wait,
      max_deliver: config.max_deliver,
      max_ack_pending: config.max_ack_pending,
    });
  } catch (err) {
    if (!/consumer not found/i.test(String((err as Error).message))) throw new TopologyError(`consumer ${decl.stream}/${durable}: ${(err as Error).message}`, decl as unknown as Record<string, unknown>, err);
    await conn.jsm.consumers.add(decl.stream, config);
  }
  return durable;
}

async function ensureStream(conn: Connection, decl: StreamDecl, cfg: ClusterConfig): Promise<void> {
  const want = streamConfig(decl, cfg);
  try {
    const info = await conn.jsm.streams.info(decl.name);
    if (info.config.retention !== want.retention)
      throw new TopologyError(`stream ${decl.name} exists with retention ${info.config.retention}, expected ${want.retention}: delete it or use another cluster`, { stream: decl.name });
    const { name: _n, retention: _r, storage: _s, ...mutable } = want;
    await conn.jsm.streams.update(decl.name, { ...info.config, ...mutable });
  } catch (err) {
    if (err instanceof TopologyError) throw err;
    if (!/stream not found/i.test(String((err as Error).message))) throw new TopologyError(`stream ${decl.name}: ${(err as Error).message}`, { stream: decl.name }, err);
    await conn.jsm.streams.add(want);
  }
}

/** Part of the topology: the streams (by name, KV_ and OBJ_ ones included) and the durable consumers one role uses. */
export interface TopologyPart {
  streams: readonly string[];
  consumers: readonly ConsumerDecl[];
}

/**
 * The first part of the topology (or of `part`) that does not exist yet, or undefined when all of it does
 * (read-only calls; with per-role users a role may look only at the streams it uses, permissions.ts usedStreamsOf).
 */
export async function missingTopology(conn: Connection, part?: TopologyPart): Promise<string | undefined> {
  const exists = (p: Promise<unknown>) => p.then(() => true, () => false);
  const wanted = (name: string) => part === undefined || part.streams.includes(name);
  for (const d of STREAM_DECLS) if (wanted(d.name) && !(await exists(conn.jsm.streams.info(d.name)))) return `stream ${d.name}`;
  for (const c of part?.consumers ?? CONSUMER_DECLS) if (!(await exists(conn.jsm.consumers.info(c.stream, durableName(c.role))))) return `consumer ${c.stream}/${durableName(c.role)}`;
  for (const b of Object.values(BUCKETS)) if (wanted(NATS_SUBJECTS.kvStream(b)) && !(await exists(conn.jsm.streams.info(NATS_SUBJECTS.kvStream(b))))) return `KV bucket ${b}`;
  for (const o of Object.values(OBJECT_STORES)) if (wanted(NATS_SUBJECTS.objectStream(o)) && !(await exists(conn.jsm.streams.info(NATS_SUBJECTS.objectStream(o))))) return `object store ${o}`;
  return undefined;
}

/**
 * Waits until the topology (or the `part` of it a role uses) exists: a host whose users may not declare it
 * (per-role permissions) starts once a host holding the admin or coordinator credentials has.
 */
export async function awaitTopology(conn: Connection, log: (line: string) => void, everyMs = 1_000, part?: TopologyPart): Promise<void> {
  let said = '';
  for (;;) {
    const missing = await missingTopology(conn, part);
    if (missing === undefined) return;
    if (missing !== said) log(`waiting for ${missing}: this host's roles may not declare the topology; a host with the admin or coordinator credentials declares it`);
    said = missing;
    await new Promise((res) => setTimeout(res, everyMs));
  }
}

/** Declares everything. Safe to run concurrently from many hosts and on every start. */
export async function ensureTopology(conn: Connection, cfg: ClusterConfig): Promise<void> {
  for (const decl of STREAM_DECLS) await ensureStream(conn, decl, cfg);
  for (const decl of CONSUMER_DECLS) await ensureConsumer(conn, decl, cfg);
  const replicas = cfg.topology.replicas;
  const storage = cfg.topology.storage === 'memory' ? StorageType.Memory : StorageType.File;
  await conn.kvm.create(BUCKETS.members, { history: 1, ttl: cfg.host.memberTtlMs, replicas, storage });
  await conn.kvm.create(BUCKETS.policy, { history: 16, replicas, storage });
  await conn.kvm.create(BUCKETS.envMemory, { history: 4, replicas, storage });
  // An outcome keeps a job's env.* records consistent across its redeliveries; it is kept as long as those records.
  await conn.kvm.create(BUCKETS.designOutcomes, { history: 1, ttl: maxAgeMs(cfg), replicas, storage });
  await conn.kvm.create(BUCKETS.run, { history: 4, replicas, storage });
  await conn.kvm.create(BUCKETS.learners, { history: 1, ttl: cfg.host.memberTtlMs, replicas, storage });
  await conn.kvm.create(BUCKETS.learnerRounds, { history: 1, replicas, storage });
  await conn.objm.create(OBJECT_STORES.weights, { replicas, storage });
}

/**
 * ensureTopology, tried again every second while JetStream does not answer: a host started just after a cluster
 * server was lost (its streams electing leaders) or restarted (recovering its store) would otherwise exit at start
 * with the declare's timeout (the chaos soak's coordinator did, at its final restart).
 */
export function declareTopology(conn: Connection, cfg: ClusterConfig, log: (line: string) => void, o: UntilAnsweredOptions = {}): Promise<void> {
  return untilAnswered('declaring the topology', () => ensureTopology(conn, cfg), log, o);
}
