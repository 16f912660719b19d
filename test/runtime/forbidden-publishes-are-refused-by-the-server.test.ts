// Per-role NATS users on a real server: what a role may not do is refused by the server, and the client sees it as a
// PermissionError naming the role, the operation and the subject — from a JetStream publish, a KV put, an object
// write, a stream purge, a durable's creation, and a pull from another role's durable.
import t from 'tap';
import { asPermissionError } from '../../runtime/connection.js';
import { isPermissionError, type PermissionError } from '../../runtime/errors.js';
import { ADMIN, READER } from '../../runtime/permissions.js';
import { BUCKETS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, durableName } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
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
