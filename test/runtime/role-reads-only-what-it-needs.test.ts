// Per-role reads on a real server: a role looks at the configs and counts of the streams it uses only (not at the
// others, and it lists none), and stored messages are read only where a role needs them. The agent may not get or follow the trajectories or read the environment
// memory, the sandbox may not read the policy or download weights, the evaluator may not read design outcomes: each
// is refused by the server and typed as a PermissionError naming the role and the JetStream subject it was refused.
import t from 'tap';
import type { Connection } from '../../runtime/connection.js';
import { followStream } from '../../runtime/follow.js';
import { ADMIN } from '../../runtime/permissions.js';
import { BUCKETS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { authServer, connectAs, refusal } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

const api = (what: string, stream: string) => new RegExp(`^\\$JS\\.API\\.(${what})\\.${stream}(\\.|$)`);
const GET = 'DIRECT\\.GET|STREAM\\.MSG\\.GET';

t.test('a role reads only the stored messages it needs', async (t) => {
  const { config } = await authServer(t);
  const admin: Connection = await connectAs(t, config, ADMIN);
  await ensureTopology(admin, config);
  await admin.js.publish(SUBJECTS.trajLabeled, enc('batch'), { msgID: 'b1' });
  await (await admin.kvm.open(BUCKETS.envMemory)).put('env-1', enc('entry'));
  await (await admin.kvm.open(BUCKETS.designOutcomes)).put('env-1', enc('accepted'));
  await (await admin.kvm.open(BUCKETS.policy)).put(POLICY_KEYS.version, enc('v1'));
  await (await admin.objm.open(OBJECT_STORES.weights)).putBlob({ name: 'policy/v1-a' }, enc('w1'));

  const agent = await connectAs(t, config, 'agent');
  const sandbox = await connectAs(t, config, 'sandbox');
  const evaluator = await connectAs(t, config, 'evaluator');

  t.equal((await agent.jsm.streams.info(STREAMS.trajectories)).state.messages, 1, 'the agent looks at the stream it publishes to');
  t.match(await refusal('agent', () => agent.jsm.streams.info(STREAMS.envs)), { role: 'agent', subject: api('STREAM\\.INFO', STREAMS.envs), code: 'PERMISSION_DENIED' }, 'not at one it does not use');
  t.match(await refusal('agent', async () => { for await (const _ of agent.jsm.streams.list()) break; }), { role: 'agent', subject: /^\$JS\.API\.STREAM\.LIST$/, code: 'PERMISSION_DENIED' }, 'and lists no streams');
  t.equal(dec((await (await agent.kvm.open(BUCKETS.policy)).get(POLICY_KEYS.version))!.value), 'v1', 'the agent reads the policy version');
  t.equal(dec((await (await agent.objm.open(OBJECT_STORES.weights)).getBlob('policy/v1-a'))!), 'w1', 'and downloads the weights');
  t.equal(dec((await (await evaluator.kvm.open(BUCKETS.envMemory)).get('env-1'))!.value), 'entry', 'the evaluator reads the memory it writes');

  t.match(await refusal('agent', () => agent.jsm.streams.getMessage(STREAMS.trajectories, { seq: 1 })), { role: 'agent', subject: api(GET, STREAMS.trajectories), code: 'PERMISSION_DENIED', message: /^role agent may not publish to \$JS\.API\./ }, 'the agent may not get a stored trajectory');
  t.match(await refusal('agent', () => followStream(agent, { stream: STREAMS.trajectories, filter: SUBJECT_WILDCARDS.traj, from: 'all' })), { role: 'agent', subject: api('CONSUMER\\.CREATE', STREAMS.trajectories), code: 'PERMISSION_DENIED' }, 'nor follow the trajectories');
  t.match(await refusal('agent', async () => (await agent.kvm.open(BUCKETS.envMemory)).get('env-1')), { role: 'agent', subject: api(GET, `KV_${BUCKETS.envMemory}`), code: 'PERMISSION_DENIED' }, 'nor read the environment memory');
  t.match(await refusal('sandbox', async () => (await sandbox.kvm.open(BUCKETS.policy)).get(POLICY_KEYS.version)), { role: 'sandbox', subject: api(GET, `KV_${BUCKETS.policy}`), code: 'PERMISSION_DENIED' }, 'the sandbox may not read the policy');
  t.match(await refusal('sandbox', async () => (await sandbox.objm.open(OBJECT_STORES.weights)).getBlob('policy/v1-a')), { role: 'sandbox', subject: api(`${GET}|CONSUMER\\.CREATE|STREAM\\.INFO`, `OBJ_${OBJECT_STORES.weights}`), code: 'PERMISSION_DENIED' }, 'nor download weights');
  t.match(await refusal('evaluator', async () => (await evaluator.kvm.open(BUCKETS.designOutcomes)).get('env-1')), { role: 'evaluator', subject: api(GET, `KV_${BUCKETS.designOutcomes}`), code: 'PERMISSION_DENIED' }, 'the evaluator may not read design outcomes');
});
