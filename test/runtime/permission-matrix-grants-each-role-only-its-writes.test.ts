// Pure logic: the permission matrix compiled from the roles' declared writes and the durable consumers: each role may
// publish what it produces and nothing another role owns; only the learner writes weights and the policy version;
// the reader writes nothing; nobody but its owner pulls from or acks a durable; docs/security.md shows this matrix.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { ADMIN, authorizationBlock, permissionMatrixMarkdown, permissionsFor, READER, ROLE_ACCESS, type NatsPermissions } from '../../runtime/permissions.js';
import { subjectCovers } from '../../runtime/subject-match.js';
import { BUCKETS, memberKey, NATS_SUBJECTS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, durableName } from '../../runtime/subjects.js';
import { CONSUMER_DECLS, STREAM_DECLS } from '../../runtime/topology.js';

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
    t.same(reader.publish.allow, [...NATS_SUBJECTS.lookApi, ...NATS_SUBJECTS.streamRead('*')], 'the reader publishes nothing but read-only JetStream calls');
    for (const s of [SUBJECTS.jobDesign, SUBJECTS.sandboxStep, kv(BUCKETS.members, 'h'), kv(BUCKETS.policy, POLICY_KEYS.version), weightsChunk, NATS_SUBJECTS.manageApi[0]!.replace('*', STREAMS.envs)])
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
      t.equal(may(role, NATS_SUBJECTS.manageApi[0]!.replace('*', STREAM_DECLS[0]!.name)), managers, `${role} ${managers ? 'may' : 'may not'} create streams`);
    }
    const follow = (stream: string) => `$JS.API.CONSUMER.CREATE.${stream}.eph123.${SUBJECTS.trajRaw}`;
    const get = (stream: string) => `$JS.API.DIRECT.GET.${stream}`;
    t.ok(may('reader', follow(STREAMS.trajectories)) && may('reader', get(STREAMS.deadLetters)), 'the reader follows and gets any stream');
    t.ok(may('coordinator', follow(STREAMS.trajectories)) && may('coordinator', follow(STREAMS.envs)), 'the coordinator follows the streams it keeps count of');
    t.notOk(may('agent', follow(STREAMS.trajectories)) || may('agent', get(STREAMS.trajectories)) || may('agent', get(NATS_SUBJECTS.kvStream(BUCKETS.envMemory))), 'the agent reads no trajectory and no memory');
    t.ok(may('agent', get(NATS_SUBJECTS.kvStream(BUCKETS.policy))) && may('agent', follow(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights))), 'the agent reads the policy version and the weights');
    t.notOk(may('sandbox', get(NATS_SUBJECTS.kvStream(BUCKETS.policy))) || may('sandbox', follow(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights))), 'the sandbox reads neither');
    for (const role of Object.keys(ROLE_ACCESS)) t.ok(may(role, `$JS.API.STREAM.INFO.${STREAMS.trajectories}`), `${role} may look at a stream's info`);
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
