// Who may publish and subscribe to what on the bus: each role's declared writes (stream subjects, core subjects,
// KV keys, object stores) plus its durable consumers from topology.ts, compiled into NATS user permissions. Pure:
// the embedded server's config, `spade auth init` and docs/security.md's matrix all come from here.
import { BUCKETS, durableName, NATS_SUBJECTS, OBJECT_STORES, POLICY_KEYS, SUBJECTS, SUBJECT_WILDCARDS } from './subjects.js';
import { CONSUMER_DECLS, type ConsumerDecl } from './topology.js';

/** What one role writes. Reading (stream and consumer info, stored messages, KV and object gets, watches) is open to every user. */
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
  },
  agent: {
    publishes: [SUBJECTS.trajRaw],
    requests: [SUBJECTS.sandboxStep, SUBJECTS.sandboxStepOnHost('*')],
    listens: [SUBJECTS.weightsLive],
  },
  evaluator: {
    publishes: [SUBJECTS.trajLabeled],
    listens: [SUBJECTS.weightsLive],
    kv: { [BUCKETS.envMemory]: ['>'], [BUCKETS.policy]: [POLICY_KEYS.designerBaseline] },
  },
  learner: {
    publishes: [SUBJECTS.learnerReduce, SUBJECTS.learnerBatches, SUBJECTS.weightsLive],
    listens: [SUBJECTS.learnerBatches, SUBJECTS.weightsLive],
    kv: { [BUCKETS.policy]: [POLICY_KEYS.version, POLICY_KEYS.learnerLock], [BUCKETS.learners]: ['>'], [BUCKETS.learnerRounds]: ['>'] },
    objects: [OBJECT_STORES.weights],
  },
  coordinator: { publishes: [SUBJECTS.jobDesign], kv: { [BUCKETS.run]: ['>'] }, manage: true },
  [READER]: { publishes: [], listens: [SUBJECT_WILDCARDS.all], client: true },
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
  const duties = access.client ? [] : [SUBJECTS.metrics(role), SUBJECTS.deadLetter(role), kvSubject(BUCKETS.members, '>')];
  const kv = Object.entries(access.kv ?? {}).flatMap(([bucket, keys]) => keys.map((k) => kvSubject(bucket, k)));
  return [...access.publishes, ...(access.requests ?? []), ...duties, ...kv, ...(access.objects ?? []).flatMap(objectSubjects)];
}

/** The NATS permissions of `role`'s user. */
export function permissionsFor(role: string, access: RoleAccess = accessOf(role)): NatsPermissions {
  if (access.all) return { publish: { allow: ['>'], deny: [] }, subscribe: { allow: ['>'], deny: [] } };
  const manage = access.manage ? NATS_SUBJECTS.manageApi : [];
  const perms: NatsPermissions = {
    publish: { allow: [...NATS_SUBJECTS.readApi, ...manage, ...writesOf(role, access)], deny: durableDenies(role, access.manage === true) },
    subscribe: { allow: [NATS_SUBJECTS.inbox, ...(access.listens ?? [])], deny: [] },
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
  const rows = ['| user | publishes | KV / object writes | subscribes (core) | pulls from |', '|---|---|---|---|---|'];
  for (const role of roles) {
    const a = accessOf(role);
    if (a.all) {
      rows.push(`| \`${role}\` | everything (declares the topology) | everything | everything | everything |`);
      continue;
    }
    const duties = a.client ? [] : [SUBJECTS.metrics(role), SUBJECTS.deadLetter(role)];
    const kv = Object.entries(a.kv ?? {}).flatMap(([b, keys]) => keys.map((k) => `${b}/${k}`));
    const stores = [...kv, ...(a.client ? [] : [`${BUCKETS.members}/>`]), ...(a.objects ?? []).map((o) => `${o} (object store)`)];
    const pubs = [...a.publishes, ...(a.requests ?? []).map((r) => `${r} (request)`), ...duties];
    const pulls = consumersOf(role).map((c) => `${c.stream}/${durableName(c.role)}`);
    rows.push(`| \`${role}\`${a.manage ? ' (declares the topology)' : ''} | ${code(pubs)} | ${code(stores)} | ${code(a.listens ?? [])}${a.answers ? ' (answers requests)' : ''} | ${code(pulls)} |`);
  }
  return `${rows.join('\n')}\n`;
}
