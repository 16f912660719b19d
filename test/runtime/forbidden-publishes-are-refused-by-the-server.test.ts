// Per-role NATS users on a real server: what a role may not do is refused by the server, and the client sees it as a
// PermissionError naming the role, the operation and the subject — from a JetStream publish, a KV put, an object
// write, a pull from another role's durable, a core publish, and an actor's output (dead-lettered at once).
import t from 'tap';
import { asPermissionError, type Connection } from '../../runtime/connection.js';
import { isPermissionError, type PermissionError } from '../../runtime/errors.js';
import { ActorHost } from '../../runtime/host.js';
import { DeadLetter, EchoJob, EchoResult } from '../../runtime/message-types.js';
import { decode, encode } from '../../runtime/messages.js';
import { ADMIN, READER } from '../../runtime/permissions.js';
import { BUCKETS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, durableName } from '../../runtime/subjects.js';
import { consumerFor, ensureTopology } from '../../runtime/topology.js';
import { authServer, connectAs } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** The error `fn` fails with, as the runtime types it for `role`. */
async function refusal(role: string, fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return asPermissionError(err, role);
  }
  return undefined;
}

/** What a refusal names, for t.match (or why it is none). */
function named(err: unknown): Record<string, unknown> {
  return isPermissionError(err) ? { role: err.role, subject: err.subject, message: err.message } : { notRefused: String(err) };
}

t.test('forbidden publishes are refused and named', async (t) => {
  const { config } = await authServer(t);
  const admin = await connectAs(t, config, ADMIN);
  await ensureTopology(admin, config);
  const agentRefused: PermissionError[] = [];
  const agent = await connectAs(t, config, 'agent', agentRefused);
  const reader = await connectAs(t, config, READER);

  t.match(named(await refusal('agent', () => agent.js.publish(SUBJECTS.trajLabeled, enc('fake')))), { role: 'agent', subject: SUBJECTS.trajLabeled, message: /^role agent may not/ }, 'agent → labeled trajectories');
  t.match(named(await refusal('agent', async () => (await agent.kvm.open(BUCKETS.policy)).put(POLICY_KEYS.version, enc('v99')))), { role: 'agent', subject: `$KV.${BUCKETS.policy}.${POLICY_KEYS.version}`, message: /^role agent may not/ }, 'agent → policy version');
  t.match(named(await refusal('agent', async () => (await agent.objm.open(OBJECT_STORES.weights)).putBlob({ name: 'policy/v99' }, enc('evil')))), { role: 'agent', subject: new RegExp(`^\\$O\\.${OBJECT_STORES.weights}\\.|OBJ_${OBJECT_STORES.weights}$`), message: /^role agent may not/ }, 'agent → weights');
  t.match(named(await refusal('agent', () => agent.js.publish(SUBJECTS.jobDesign, enc('job')))), { role: 'agent', subject: SUBJECTS.jobDesign, message: /^role agent may not/ }, 'agent → design jobs');

  await admin.js.publish(SUBJECTS.trajLabeled, enc('real'), { msgID: 'b1' });
  // A refused pull request has no answer to fail: the connection reports it.
  const m = await (await agent.js.consumers.get(STREAMS.trajectories, durableName('learner'))).next({ expires: 2_000 }).catch(() => null);
  t.equal(m, null, 'the agent gets nothing from the learner\'s consumer');
  t.match(named(agentRefused.find((e) => /CONSUMER\.MSG\.NEXT/.test(e.subject))), { role: 'agent', subject: `$JS.API.CONSUMER.MSG.NEXT.${STREAMS.trajectories}.${durableName('learner')}`, message: /^role agent may not/ }, 'agent → the learner\'s work');
  t.equal((await admin.jsm.consumers.info(STREAMS.trajectories, durableName('learner'))).num_pending, 1, 'the learner\'s batch is still there');

  t.match(named(await refusal(READER, () => reader.js.publish(SUBJECTS.jobDesign, enc('job')))), { role: READER, subject: SUBJECTS.jobDesign, message: /^role reader may not/ }, 'reader → a job');
  t.match(named(await refusal(READER, async () => (await reader.kvm.open(BUCKETS.members)).put('fake-host', enc('{}')))), { role: READER, subject: `$KV.${BUCKETS.members}.fake-host`, message: /^role reader may not/ }, 'reader → membership');
  t.match(named(await refusal(READER, () => reader.jsm.streams.purge(STREAMS.trajectories))), { role: READER, subject: /STREAM\.PURGE/, message: /^role reader may not/ }, 'reader → purge');
  t.match(named(await refusal(READER, () => reader.jsm.consumers.add(STREAMS.jobsRollout, { durable_name: durableName('agent'), filter_subject: SUBJECTS.jobRollout }))), { role: READER, subject: /CONSUMER\.CREATE/, message: /^role reader may not/ }, 'reader → a durable');
});

t.test('a core publish is refused asynchronously and reported on the connection', async (t) => {
  const { config } = await authServer(t);
  const refused: PermissionError[] = [];
  const reader: Connection = await connectAs(t, config, READER, refused);
  reader.nc.publish(SUBJECTS.sandboxStep, enc('step'));
  reader.nc.publish(SUBJECTS.weightsLive, enc('chunk'));
  await reader.nc.flush();
  while (refused.length < 2) await new Promise((res) => setTimeout(res, 20));
  t.same(refused.map((e) => [e.role, e.operation, e.subject]), [[READER, 'publish', SUBJECTS.sandboxStep], [READER, 'publish', SUBJECTS.weightsLive]]);
  t.equal(refused[0]!.code, 'PERMISSION_DENIED');
});

t.test('an actor whose output its role may not publish is dead-lettered at once, naming subject and role', async (t) => {
  const { config } = await authServer(t);
  const admin = await connectAs(t, config, ADMIN);
  await ensureTopology(admin, config);
  const echo = await connectAs(t, config, 'echo');
  const host = new ActorHost({ conn: echo, config, hostId: 'h', log: () => undefined, connFor: () => echo });
  // An echo actor that answers on a subject it does not own.
  await host.start([() => ({
    role: 'echo',
    input: { consumer: consumerFor('echo', SUBJECTS.jobEcho), type: EchoJob },
    handle: async (job: { id: string; payload: Uint8Array }) => [{ subject: SUBJECTS.trajLabeled, type: EchoResult, body: { id: job.id, host: 'h', pid: 1, deliveryCount: 1, bytes: job.payload.length }, msgId: `x:${job.id}` }],
  })], ['echo']);
  t.teardown(() => host.stop());
  await admin.js.publish(SUBJECTS.jobEcho, encode(EchoJob, { id: 'j1', payload: enc('p') }), { msgID: 'j1' });
  const dlq = await (await admin.js.consumers.get(STREAMS.deadLetters)).next({ expires: 10_000 });
  t.ok(dlq, 'a dead letter arrives');
  const d = decode(DeadLetter, dlq!.data);
  t.equal(d.code, 'PERMISSION_DENIED');
  t.match(d.reason, `role echo may not publish to ${SUBJECTS.trajLabeled}`);
  t.equal(host.stats.deadLettered, 1, 'on the first delivery, not after retries');
});
