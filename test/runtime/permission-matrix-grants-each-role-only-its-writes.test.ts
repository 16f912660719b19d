// Pure logic: the permission matrix compiled from the roles' declared writes and the durable consumers: each role may
// publish what it produces and nothing another role owns; only the learner writes weights and the policy version;
// the reader writes nothing; nobody but its owner pulls from or acks a durable; only the topology managers create
// consumers under a name of their choosing outside buckets and stores, and only the declared durables; each role looks
// at the streams it uses only; docs/security.md shows this matrix.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { ADMIN, authorizationBlock, declaredStreams, permissionMatrixMarkdown, permissionsFor, READER, ROLE_ACCESS, usedStreamsOf, type NatsPermissions } from '../../runtime/permissions.js';
import { subjectCovers } from '../../runtime/subject-match.js';
import { BUCKETS, memberKey, NATS_SUBJECTS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, durableName } from '../../runtime/subjects.js';
import { CONSUMER_DECLS, STREAM_DECLS } from '../../runtime/topology-decls.js';

/** What nats-server decides for a publish: some allow covers it and no deny does. */
function mayPublish(p: NatsPermissions, subject: string): boolean {
  return p.publish.allow.some((a) => subjectCovers(a, subject)) && !p.publish.deny.some((d) => subjectCovers(d, subject));
}
const may = (role: string, subject: string) => mayPublish(permissionsFor(role), subject);
const kv = NATS_SUBJECTS.kvKey;
const weightsChunk = `$O.${OBJECT_STORES.weights}.C.abc`;
const next = (role: string, stream: string) => NATS_SUBJECTS.consumerUse(stream, durableName(role))[0]!;
const ack = (role: string, stream: string) => `$JS.ACK.${stream}.${durableName(role)}.1.2.3.4.5`;

t.test('the permission matrix grants each role only its writes', async (t) => {
  t.test('each role publishes its own outputs', async (t) => {
    const own: Array<[string, string]> = [
      ['coordinator', SUBJECTS.jobDesign], ['coordinator', kv(BUCKETS.run, 'next_iteration')],
      ['designer', SUBJECTS.envAccepted], ['designer', SUBJECTS.envRejected], ['designer', SUBJECTS.jobRollout], ['designer', SUBJECTS.sandboxValidate], ['designer', kv(BUCKETS.envMemory, 'k')],
      ['agent', SUBJECTS.trajRaw], ['agent', SUBJECTS.sandboxStep], ['agent', SUBJECTS.sandboxStepOnHost('h1')],
      ['evaluator', SUBJECTS.trajLabeled], ['evaluator', kv(BUCKETS.policy, POLICY_KEYS.designerBaseline)], ['evaluator', kv(BUCKETS.envMemory, 'k')],
      ['learner', kv(BUCKETS.policy, POLICY_KEYS.version)], ['learner', kv(BUCKETS.policy, POLICY_KEYS.learnerLock)], ['learner', weightsChunk],
      ['learner', NATS_SUBJECTS.objectWrite(OBJECT_STORES.weights)[1]!], ['learner', SUBJECTS.learnerReduce], ['learner', SUBJECTS.weightsLive],
      ['learner', SUBJECTS.learnerBatches], ['learner', kv(BUCKETS.learners, 'learner-a')], ['learner', kv(BUCKETS.learnerRounds, 'r1.meta')],
      ['learner', NATS_SUBJECTS.streamPurge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds))],
      ['echo', SUBJECTS.resultEcho],
    ];
    for (const [role, subject] of own) t.ok(may(role, subject), `${role} may publish ${subject}`);
    for (const role of Object.keys(ROLE_ACCESS).filter((r) => r !== READER && r !== ADMIN)) {
      t.ok(may(role, SUBJECTS.metrics(role)) && may(role, SUBJECTS.deadLetter(role)) && may(role, kv(BUCKETS.members, memberKey(role, 'host-1'))), `${role} does the host duties`);
      t.notOk(may(role, kv(BUCKETS.members, memberKey(role === 'agent' ? 'learner' : 'agent', 'host-1'))) || may(role, kv(BUCKETS.members, 'host-1')), `${role} writes no other role's heartbeat`);
      t.same(permissionsFor(role).subscribe.allow.filter((s) => s.startsWith('_INBOX')), [NATS_SUBJECTS.inbox(role)], `${role} receives replies on its own inbox only`);
      t.notOk(may(role, SUBJECTS.metrics('other')), `${role} writes no other role's metrics`);
      for (const c of CONSUMER_DECLS.filter((c) => c.role === role)) t.ok(may(role, next(role, c.stream)) && may(role, ack(role, c.stream)), `${role} pulls from and acks ${c.stream}/${durableName(role)}`);
    }
  });

  t.test('forbidden writes', async (t) => {
    const forbidden: Array<[string, string]> = [
      ['agent', SUBJECTS.trajLabeled], ['agent', kv(BUCKETS.policy, POLICY_KEYS.version)], ['agent', weightsChunk], ['agent', SUBJECTS.jobDesign], ['agent', SUBJECTS.envAccepted],
      ['designer', SUBJECTS.trajRaw], ['designer', SUBJECTS.trajLabeled], ['designer', kv(BUCKETS.policy, POLICY_KEYS.version)],
      ['evaluator', kv(BUCKETS.policy, POLICY_KEYS.version)], ['evaluator', weightsChunk], ['evaluator', SUBJECTS.trajRaw],
      ['coordinator', SUBJECTS.trajLabeled], ['coordinator', weightsChunk], ['sandbox', SUBJECTS.trajRaw], ['echo', SUBJECTS.jobEcho],
    ];
    for (const [role, subject] of forbidden) t.notOk(may(role, subject), `${role} may not publish ${subject}`);
    const writers = Object.keys(ROLE_ACCESS).filter((r) => r !== ADMIN && (may(r, weightsChunk) || may(r, kv(BUCKETS.policy, POLICY_KEYS.version))));
    t.same(writers, ['learner'], 'only the learner writes weights and the policy version');
    const group = [SUBJECTS.learnerReduce, SUBJECTS.learnerBatches, kv(BUCKETS.learners, 'h'), kv(BUCKETS.learnerRounds, 'r1.meta'), NATS_SUBJECTS.streamPurge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds))];
    t.same(Object.keys(ROLE_ACCESS).filter((r) => r !== ADMIN && group.some((s) => may(r, s))), ['learner'], "only the learner writes the learner group's subjects, keys and purges");
    const reader = permissionsFor(READER);
    const readOnly = [...NATS_SUBJECTS.accountApi, ...NATS_SUBJECTS.streamLook('*'), ...NATS_SUBJECTS.listApi, ...NATS_SUBJECTS.streamGet('*'), ...NATS_SUBJECTS.streamFollow('*'), ...NATS_SUBJECTS.streamWatch('*')];
    t.same([...reader.publish.allow].sort(), [...readOnly].sort(), 'the reader publishes nothing but read-only JetStream calls');
    for (const s of [SUBJECTS.jobDesign, SUBJECTS.sandboxStep, kv(BUCKETS.members, 'h'), kv(BUCKETS.policy, POLICY_KEYS.version), weightsChunk, NATS_SUBJECTS.streamAdmin(STREAMS.envs)[0]!, `$JS.API.CONSUMER.DURABLE.CREATE.${STREAMS.envs}.mine`])
      t.notOk(mayPublish(reader, s), `the reader may not publish ${s}`);
  });

  t.test('durable consumers: only their role pulls and acks; only the topology managers create them', async (t) => {
    for (const c of CONSUMER_DECLS)
      for (const role of Object.keys(ROLE_ACCESS).filter((r) => r !== c.role && r !== ADMIN)) {
        t.notOk(may(role, next(c.role, c.stream)) || may(role, ack(c.role, c.stream)), `${role} may not pull from or ack ${c.stream}/${durableName(c.role)}`);
      }
    const create = (c: (typeof CONSUMER_DECLS)[number]) => `${NATS_SUBJECTS.consumerAdmin(c.stream, durableName(c.role))[1]!.slice(0, -1)}${c.filter}`;
    for (const role of Object.keys(ROLE_ACCESS)) {
      const managers = role === ADMIN || ROLE_ACCESS[role]!.manage === true;
      t.equal(CONSUMER_DECLS.every((c) => may(role, create(c))), managers, `${role} ${managers ? 'may' : 'may not'} create or update the durables`);
      t.equal(may(role, NATS_SUBJECTS.streamAdmin(STREAM_DECLS[0]!.name)[0]!), managers, `${role} ${managers ? 'may' : 'may not'} create streams`);
      // Under any other name, on any stream: not even a manager (only admin) creates a durable or a stream the topology does not declare.
      t.equal(may(role, `$JS.API.CONSUMER.DURABLE.CREATE.${STREAMS.envs}.mine`) || may(role, NATS_SUBJECTS.streamAdmin('SPADE_MINE')[0]!), role === ADMIN, `${role} ${role === ADMIN ? 'may' : 'may not'} create another durable or stream`);
    }
    // Named by the client (may be a durable) vs named by the server (the 2.9 subject without a name: ephemeral only).
    const named = (stream: string) => `$JS.API.CONSUMER.CREATE.${stream}.mine.${SUBJECTS.trajRaw}`;
    const follow = (stream: string) => `$JS.API.CONSUMER.CREATE.${stream}`;
    const get = (stream: string) => `$JS.API.DIRECT.GET.${stream}`;
    t.ok(may('reader', named(STREAMS.trajectories)) && may('reader', follow(STREAMS.trajectories)) && may('reader', get(STREAMS.deadLetters)), 'the reader follows and gets any stream');
    t.ok(may('coordinator', follow(STREAMS.trajectories)) && may('coordinator', follow(STREAMS.envs)), 'the coordinator follows the streams it keeps count of');
    t.notOk(may('coordinator', named(STREAMS.trajectories)) || may('coordinator', named(STREAMS.envs)), 'through server-named consumers only');
    t.notOk(may('agent', follow(STREAMS.trajectories)) || may('agent', get(STREAMS.trajectories)) || may('agent', get(NATS_SUBJECTS.kvStream(BUCKETS.envMemory))), 'the agent reads no trajectory and no memory');
    t.ok(may('agent', get(NATS_SUBJECTS.kvStream(BUCKETS.policy))) && may('agent', named(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights))), 'the agent reads the policy version and the weights');
    t.notOk(may('sandbox', get(NATS_SUBJECTS.kvStream(BUCKETS.policy))) || may('sandbox', named(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights))), 'the sandbox reads neither');
    const stores = new Set([...Object.values(BUCKETS).map(NATS_SUBJECTS.kvStream), ...Object.values(OBJECT_STORES).map(NATS_SUBJECTS.objectStream)]);
    for (const role of Object.keys(ROLE_ACCESS).filter((r) => r !== READER && r !== ADMIN)) {
      const namedOn = declaredStreams().filter((s) => may(role, named(s)) || may(role, `$JS.API.CONSUMER.CREATE.${s}.mine`));
      t.same(namedOn.filter((s) => !stores.has(s) && !(role === 'learner' && s === STREAMS.learnerReduce)), [], `${role} names consumers only on the buckets and stores it reads${role === 'learner' ? ' and its group\'s stream' : ''}`);
    }
  });

  t.test('a role looks only at the streams it uses', async (t) => {
    const info = (stream: string) => `$JS.API.STREAM.INFO.${stream}`;
    for (const role of Object.keys(ROLE_ACCESS)) {
      const all = role === READER || role === ADMIN || ROLE_ACCESS[role]!.manage === true;
      t.equal(declaredStreams().every((s) => may(role, info(s))), all, `${role} ${all ? 'looks at every stream' : 'does not look at every stream'}`);
      t.equal(may(role, '$JS.API.STREAM.LIST') || may(role, '$JS.API.STREAM.NAMES'), all, `${role} ${all ? 'may' : 'may not'} list the streams`);
      if (!all) t.ok(usedStreamsOf(role).every((s) => may(role, info(s)) && may(role, `$JS.API.CONSUMER.INFO.${s}.x`)), `${role} looks at the streams it uses: ${usedStreamsOf(role).join(', ')}`);
    }
    t.notOk(may('agent', info(STREAMS.envs)) || may('agent', info(STREAMS.jobsDesign)) || may('agent', info(NATS_SUBJECTS.kvStream(BUCKETS.envMemory))) || may('sandbox', info(NATS_SUBJECTS.kvStream(BUCKETS.policy))), 'the agent does not look at the environments, the design jobs or the memory, the sandbox not at the policy');
    t.ok(may('agent', info(STREAMS.jobsRollout)) && may('agent', info(STREAMS.trajectories)) && may('agent', info(NATS_SUBJECTS.kvStream(BUCKETS.members))) && may('agent', info(STREAMS.metrics)), 'the agent looks at its job queue, the stream it publishes to, its heartbeats\' bucket and its metrics\' stream');
  });

  t.test('the server config and the documented matrix come from the same table', async (t) => {
    const block = authorizationBlock([{ role: 'agent', nkey: 'UAGENT' }, { role: 'sandbox', user: 'spade-sandbox', pass: 'p"w' }]);
    t.match(block, /authorization \{\n {2}users = \[/);
    t.match(block, /nkey: "UAGENT", permissions/);
    t.match(block, /user: "spade-sandbox", password: "p\\"w"/, 'strings are quoted');
    t.match(block, /allow_responses: true/, 'the sandbox answers requests');
    const doc = readFileSync(repoPath('docs/security.md'), 'utf8');
    t.ok(doc.includes(permissionMatrixMarkdown()), 'docs/security.md carries permissionMatrixMarkdown() verbatim');
  });
});
