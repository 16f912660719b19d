// Who may publish, subscribe and read what on the bus: each role's declared writes (stream subjects, core subjects,
// KV keys, object stores) and reads (streams, buckets, object stores) plus its durable consumers from topology-decls.ts,
// compiled into NATS user permissions. Pure: the embedded server's config, `spade auth init` and docs/security.md's
// matrix all come from here.
import { BUCKETS, durableName, memberKey, NATS_SUBJECTS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from './subjects.js';
import { subjectsOverlap } from './subject-match.js';
import { CONSUMER_DECLS, STREAM_DECLS, type ConsumerDecl } from './topology-decls.js';

/** What one role reads beyond what it writes (a KV bucket or object store it writes, it also reads). */
export interface RoleReads {
  /** Streams whose stored messages it gets or follows through an ephemeral consumer the server names (never a durable). */
  streams?: readonly string[];
  /** Streams it reads through an ordered consumer, which nats.js names itself (so it needs the named create there). */
  ordered?: readonly string[];
  /** KV buckets it gets, lists or watches. */
  buckets?: readonly string[];
  /** Object stores it downloads from. */
  objects?: readonly string[];
}

/**
 * What one role writes and reads. A role looks at the configs and counts (stream and consumer info) of the streams it
 * uses only (usedStreamsOf); stored messages (gets, ephemeral consumers, KV and object reads, watches) only where
 * `reads` or a write says.
 */
export interface RoleAccess {
  /** Subjects it publishes: stream subjects (JetStream publishes) and core subjects. */
  publishes: readonly string[];
  /** Core request subjects it calls (request/reply). */
  requests?: readonly string[];
  /** Core subjects it subscribes to. */
  listens?: readonly string[];
  /** Answers core requests (publishes once to each request's reply subject). */
  answers?: boolean;
  /** KV writes: bucket → keys (`>` = every key). */
  kv?: Readonly<Record<string, readonly string[]>>;
  /** Object stores it writes (and prunes). */
  objects?: readonly string[];
  /** KV buckets whose old entries it purges from the bucket's stream (no delete markers left). */
  purges?: readonly string[];
  /** What it reads; `all`: every stream (the reader). */
  reads?: RoleReads | 'all';
  /** Streams whose configs and consumer counts it looks at without reading a message (the learner's pipeline count). */
  inspects?: readonly string[];
  /** Declares streams, consumers, KV buckets and object stores (runtime/topology.ts). */
  manage?: boolean;
  /** Everything: the run's owner (declares the topology, tests, scripts). */
  all?: boolean;
  /** No host duties (heartbeats, metrics, dead letters): a client command. */
  client?: boolean;
}

/** The user of `spade tail`, `status`, `dashboard` and `report`: reads everything, writes nothing. */
export const READER = 'reader';
/** The user that may do anything: the host that starts the embedded server declares the topology with it. */
export const ADMIN = 'admin';

/** The loop's roles and the two users beside them. A role not listed here gets only the host duties (see permissionsFor). */
export const ROLE_ACCESS: Readonly<Record<string, RoleAccess>> = {
  echo: { publishes: [SUBJECTS.resultEcho] },
  sandbox: { publishes: [], listens: [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep, SUBJECTS.sandboxStepOnHost('*')], answers: true },
  designer: {
    publishes: [SUBJECTS.envAccepted, SUBJECTS.envRejected, SUBJECTS.jobRollout],
    // Validation, and resets of library environments (the fixed-environment baseline).
    requests: [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep, SUBJECTS.sandboxStepOnHost('*')],
    listens: [SUBJECTS.weightsLive],
    // Memory entries, and each design job's outcome record (claimed before anything is published).
    kv: { [BUCKETS.envMemory]: ['>'], [BUCKETS.designOutcomes]: ['>'] },
    // The policy it samples with: the version key and the weights it names.
    reads: { buckets: [BUCKETS.policy], objects: [OBJECT_STORES.weights] },
  },
  agent: {
    publishes: [SUBJECTS.trajRaw],
    requests: [SUBJECTS.sandboxStep, SUBJECTS.sandboxStepOnHost('*')],
    listens: [SUBJECTS.weightsLive],
    reads: { buckets: [BUCKETS.policy], objects: [OBJECT_STORES.weights] },
  },
  // Labels with the rewards the agents recorded: no policy of its own, so no weights.
  evaluator: {
    publishes: [SUBJECTS.trajLabeled],
    kv: { [BUCKETS.envMemory]: ['>'], [BUCKETS.policy]: [POLICY_KEYS.designerBaseline] },
  },
  learner: {
    publishes: [SUBJECTS.learnerReduce, SUBJECTS.learnerBatches, SUBJECTS.weightsLive],
    listens: [SUBJECTS.learnerBatches, SUBJECTS.weightsLive],
    kv: { [BUCKETS.policy]: [POLICY_KEYS.version, POLICY_KEYS.learnerLock], [BUCKETS.learners]: ['>'], [BUCKETS.learnerRounds]: ['>'] },
    objects: [OBJECT_STORES.weights],
    // The group's old round keys (GroupReduce.prune).
    purges: [BUCKETS.learnerRounds],
    // The pending and unacked counts of the pipeline's consumers (actors/learner/work-in-flight.ts).
    inspects: [STREAMS.jobsDesign, STREAMS.jobsRollout, STREAMS.trajectories, STREAMS.envs],
    // The group's round contributions (an ordered consumer from the newest).
    reads: { ordered: [STREAMS.learnerReduce] },
  },
  // Follows environments, labeled trajectories and metrics (its iteration bookkeeping) and the policy version.
  coordinator: {
    publishes: [SUBJECTS.jobDesign], kv: { [BUCKETS.run]: ['>'] }, manage: true,
    reads: { streams: [STREAMS.envs, STREAMS.trajectories, STREAMS.metrics], buckets: [BUCKETS.policy] },
  },
  [READER]: { publishes: [], listens: [SUBJECT_WILDCARDS.all], client: true, reads: 'all' },
  [ADMIN]: { publishes: [], all: true },
};

/** The permissions block of one NATS user (nats-server's `permissions`). */
export interface NatsPermissions {
  publish: { allow: string[]; deny: string[] };
  subscribe: { allow: string[]; deny: string[] };
  allow_responses?: boolean;
}

/** JetStream publishes go to these subjects for a KV key and an object store. */
export const kvSubject = NATS_SUBJECTS.kvKey;
export const objectSubjects = NATS_SUBJECTS.objectWrite;

/**
 * What `role` may not do to the durable consumers: create, update or delete any (unless it manages the topology),
 * and pull from or ack another role's (that would take its work).
 */
function durableDenies(role: string, manage: boolean): string[] {
  const out: string[] = [];
  for (const c of CONSUMER_DECLS) {
    if (!manage) out.push(...NATS_SUBJECTS.consumerAdmin(c.stream, durableName(c.role)));
    if (c.role !== role) out.push(...NATS_SUBJECTS.consumerUse(c.stream, durableName(c.role)));
  }
  return [...new Set(out)];
}

/** The durable consumers `role` pulls from. */
export function consumersOf(role: string): ConsumerDecl[] {
  return CONSUMER_DECLS.filter((c) => c.role === role);
}

/** The access of `role`: declared, or for a role this table does not know, only the host duties. */
export function accessOf(role: string): RoleAccess {
  return Object.hasOwn(ROLE_ACCESS, role) ? ROLE_ACCESS[role]! : { publishes: [] };
}

/** Every subject `role` may publish to (API subjects aside). */
export function writesOf(role: string, access: RoleAccess = accessOf(role)): string[] {
  const duties = access.client ? [] : [SUBJECTS.metrics(role), SUBJECTS.deadLetter(role), kvSubject(BUCKETS.members, memberKey(role, '>'))];
  const kv = Object.entries(access.kv ?? {}).flatMap(([bucket, keys]) => keys.map((k) => kvSubject(bucket, k)));
  const purges = (access.purges ?? []).map((b) => NATS_SUBJECTS.streamPurge(NATS_SUBJECTS.kvStream(b)));
  return [...access.publishes, ...(access.requests ?? []), ...duties, ...kv, ...purges, ...(access.objects ?? []).flatMap(objectSubjects)];
}

/** The streams behind the KV buckets and object stores `role` reads or writes (nats.js watches, lists and gets them through named ordered consumers). */
function storesOf(access: RoleAccess): string[] {
  const r = access.reads === 'all' ? {} : (access.reads ?? {});
  const buckets = new Set([...(r.buckets ?? []), ...Object.keys(access.kv ?? {})]);
  const objects = new Set([...(r.objects ?? []), ...(access.objects ?? [])]);
  return [...[...buckets].map(NATS_SUBJECTS.kvStream), ...[...objects].map(NATS_SUBJECTS.objectStream)];
}

/** The streams whose stored messages `role` reads: declared, plus those behind the buckets and object stores it writes; `*` = every stream. */
export function readsOf(role: string, access: RoleAccess = accessOf(role)): string[] {
  if (access.reads === 'all') return ['*'];
  const r = access.reads ?? {};
  return [...(r.streams ?? []), ...(r.ordered ?? []), ...storesOf(access)];
}

/** Every stream the topology declares: the loop's, and those behind its KV buckets and object stores. */
export function declaredStreams(): string[] {
  return [...STREAM_DECLS.map((d) => d.name), ...Object.values(BUCKETS).map(NATS_SUBJECTS.kvStream), ...Object.values(OBJECT_STORES).map(NATS_SUBJECTS.objectStream)];
}

/**
 * The streams `role` uses, whose configs, counts and consumers it may look at: those it reads, pulls from or
 * publishes to (its heartbeats' bucket among them), and every declared one for a topology manager. A host that may
 * not declare the topology waits for these before it starts (topology.ts awaitTopology).
 */
export function usedStreamsOf(role: string, access: RoleAccess = accessOf(role)): string[] {
  if (access.reads === 'all' || access.all) return ['*'];
  const writes = writesOf(role, access);
  const published = STREAM_DECLS.filter((d) => d.subjects.some((sub) => writes.some((w) => subjectsOverlap(w, sub)))).map((d) => d.name);
  const members = access.client ? [] : [NATS_SUBJECTS.kvStream(BUCKETS.members)];
  const declares = access.manage ? declaredStreams() : [];
  return [...new Set([...readsOf(role, access), ...consumersOf(role).map((c) => c.stream), ...published, ...members, ...declares, ...(access.inspects ?? [])])];
}

/** What a topology manager may declare: the declared streams and durable consumers, and nothing under another name. */
function manageApi(): string[] {
  return [...declaredStreams().flatMap(NATS_SUBJECTS.streamAdmin), ...CONSUMER_DECLS.flatMap((c) => NATS_SUBJECTS.consumerAdmin(c.stream, durableName(c.role))), ...NATS_SUBJECTS.listApi];
}

/** The NATS permissions of `role`'s user: its replies come to `_INBOX.<role>.>` only (connection.ts sets the prefix). */
export function permissionsFor(role: string, access: RoleAccess = accessOf(role)): NatsPermissions {
  if (access.all) return { publish: { allow: ['>'], deny: [] }, subscribe: { allow: ['>'], deny: [] } };
  const manage = access.manage ? manageApi() : [];
  const r = access.reads === 'all' ? null : (access.reads ?? {});
  // Gets on every stream read; the server-named ephemeral consumer on followed streams; named ones where nats.js names them.
  const reads = r === null
    ? [...NATS_SUBJECTS.listApi, ...NATS_SUBJECTS.streamGet('*'), ...NATS_SUBJECTS.streamFollow('*'), ...NATS_SUBJECTS.streamWatch('*')]
    : [
      ...readsOf(role, access).flatMap((s) => [...NATS_SUBJECTS.streamGet(s), ...NATS_SUBJECTS.streamFollow(s)]),
      ...[...(r.ordered ?? []), ...storesOf(access)].flatMap(NATS_SUBJECTS.streamWatch),
    ];
  const look = [...NATS_SUBJECTS.accountApi, ...usedStreamsOf(role, access).flatMap(NATS_SUBJECTS.streamLook)];
  const own = consumersOf(role).flatMap((c) => NATS_SUBJECTS.consumerUse(c.stream, durableName(c.role)));
  const perms: NatsPermissions = {
    publish: { allow: [...new Set([...look, ...reads, ...own, ...manage, ...writesOf(role, access)])], deny: durableDenies(role, access.manage === true) },
    subscribe: { allow: [NATS_SUBJECTS.inbox(role), ...(access.listens ?? [])], deny: [] },
  };
  if (access.answers) perms.allow_responses = true;
  return perms;
}

/** One user of the server config: an nkey (public key) or a user name and password. */
export type ServerUser = { role: string; nkey: string } | { role: string; user: string; pass: string };

/** The `authorization { users = [...] }` block of a nats-server config (2.9+) for these users, each with its role's permissions. */
export function authorizationBlock(users: readonly ServerUser[], access: (role: string) => RoleAccess = accessOf): string {
  const q = (s: string) => JSON.stringify(s);
  const list = (xs: string[]) => `[${xs.map(q).join(', ')}]`;
  const lines = ['authorization {', '  users = ['];
  for (const u of users) {
    const p = permissionsFor(u.role, access(u.role));
    const who = 'nkey' in u ? `nkey: ${q(u.nkey)}` : `user: ${q(u.user)}, password: ${q(u.pass)}`;
    lines.push(`    # ${u.role}`, `    { ${who}, permissions: {`);
    lines.push(`      publish: { allow: ${list(p.publish.allow)}${p.publish.deny.length ? `, deny: ${list(p.publish.deny)}` : ''} }`);
    lines.push(`      subscribe: { allow: ${list(p.subscribe.allow)} }`);
    if (p.allow_responses) lines.push('      allow_responses: true');
    lines.push('    } }');
  }
  lines.push('  ]', '}');
  return `${lines.join('\n')}\n`;
}

/** The permission matrix as a markdown table (docs/security.md carries it; a test keeps the two equal). */
export function permissionMatrixMarkdown(roles: readonly string[] = Object.keys(ROLE_ACCESS)): string {
  const code = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : '—');
  const rows = ['| user | publishes | KV / object writes | reads (stored messages) | subscribes (core) | pulls from |', '|---|---|---|---|---|---|'];
  for (const role of roles) {
    const a = accessOf(role);
    if (a.all) {
      rows.push(`| \`${role}\` | everything (declares the topology) | everything | everything | everything | everything |`);
      continue;
    }
    const duties = a.client ? [] : [SUBJECTS.metrics(role), SUBJECTS.deadLetter(role)];
    const kv = Object.entries(a.kv ?? {}).flatMap(([b, keys]) => keys.map((k) => `${b}/${k}`));
    const stores = [...kv, ...(a.client ? [] : [`${BUCKETS.members}/${memberKey(role, '>')}`]), ...(a.purges ?? []).map((b) => `${b} (purges old entries)`), ...(a.objects ?? []).map((o) => `${o} (object store)`)];
    const reads = readsOf(role, a);
    const pubs = [...a.publishes, ...(a.requests ?? []).map((r) => `${r} (request)`), ...duties];
    const pulls = consumersOf(role).map((c) => `${c.stream}/${durableName(c.role)}`);
    rows.push(`| \`${role}\`${a.manage ? ' (declares the topology)' : ''} | ${code(pubs)} | ${code(stores)} | ${a.reads === 'all' ? 'every stream' : code(reads)} | ${code(a.listens ?? [])}${a.answers ? ' (answers requests)' : ''} | ${code(pulls)} |`);
  }
  return `${rows.join('\n')}\n`;
}
