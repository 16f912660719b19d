// Consumer creation per role on a real server. Following a stream goes through the nats-server 2.9 subject without a
// consumer name (`$JS.API.CONSUMER.CREATE.<stream>`), on which the server itself refuses a durable; a name of the
// client's choosing (`CONSUMER.CREATE.<stream>.<name>[.<filter>]`, which may carry a durable) is allowed only on the
// buckets and stores a role reads, where nats.js names its watches and gets; the durable subject
// (`CONSUMER.DURABLE.CREATE`) and stream creation only for the declared durables and streams, by the topology managers.
// So the coordinator declares the loop's durables and follows the events it counts, but creates no durable or stream of
// its own; the agent still watches the policy version and downloads weights.
import t from 'tap';
import { AckPolicy } from '@nats-io/jetstream';
import type { Connection } from '../../runtime/connection.js';
import { followKv, followStream } from '../../runtime/follow.js';
import { ADMIN } from '../../runtime/permissions.js';
import { BUCKETS, OBJECT_STORES, POLICY_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { ensureTopology, missingTopology } from '../../runtime/topology.js';
import { authServer, connectAs, refusal } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const api = (what: string) => new RegExp(`^\\$JS\\.API\\.${what.replace(/\./g, '\\.')}$`);

t.test('a role creates only the consumers it needs', async (t) => {
  const { config } = await authServer(t);
  const coordinator: Connection = await connectAs(t, config, 'coordinator');
  await ensureTopology(coordinator, config);
  t.equal(await missingTopology(coordinator), undefined, 'the coordinator declares every stream, durable, bucket and the object store');
  const admin = await connectAs(t, config, ADMIN);
  await admin.js.publish(SUBJECTS.envAccepted, enc('env-1'));

  const events = await followStream(coordinator, { stream: STREAMS.envs, filter: SUBJECT_WILDCARDS.env, from: 'all' });
  t.teardown(() => events.close());
  for await (const m of events) {
    t.equal(dec(m.data), 'env-1', 'it follows the events it counts, through a consumer the server names');
    break;
  }

  const mine = { ack_policy: AckPolicy.Explicit, filter_subject: SUBJECTS.envAccepted };
  t.match(await refusal('coordinator', () => coordinator.jsm.consumers.add(STREAMS.envs, { ...mine, durable_name: 'mine' })), { subject: api(`CONSUMER.CREATE.${STREAMS.envs}.mine.${SUBJECTS.envAccepted}`), code: 'PERMISSION_DENIED' }, 'it may not create a durable of its own under a name');
  t.match(await refusal('coordinator', () => coordinator.jsm.consumers.add(STREAMS.envs, { ...mine, name: 'mine' })), { subject: api(`CONSUMER.CREATE.${STREAMS.envs}.mine.${SUBJECTS.envAccepted}`), code: 'PERMISSION_DENIED' }, 'nor name an ephemeral one');
  const durableCreate = `$JS.API.CONSUMER.DURABLE.CREATE.${STREAMS.envs}.mine`;
  t.match(await refusal('coordinator', () => coordinator.nc.request(durableCreate, JSON.stringify({ stream_name: STREAMS.envs, config: { ...mine, durable_name: 'mine' } }), { timeout: 2_000 })), { subject: api(durableCreate.slice('$JS.API.'.length)), code: 'PERMISSION_DENIED' }, 'nor through the durable subject');
  const nameless = await coordinator.nc.request(`$JS.API.CONSUMER.CREATE.${STREAMS.envs}`, JSON.stringify({ stream_name: STREAMS.envs, config: { ...mine, durable_name: 'mine' } }), { timeout: 2_000 });
  t.match(JSON.parse(dec(nameless.data)), { error: { code: 400, err_code: 10020, description: /expected to be ephemeral/ } }, 'and the subject it follows through is refused a durable by the server');
  t.match(await refusal('coordinator', () => coordinator.jsm.streams.add({ name: 'SPADE_MINE', subjects: ['mine.>'] })), { subject: api('STREAM.CREATE.SPADE_MINE'), code: 'PERMISSION_DENIED' }, 'nor a stream the topology does not declare');
  t.same((await coordinator.jsm.consumers.list(STREAMS.envs).next()).map((c) => c.config.durable_name).filter(Boolean).sort(), ['spade-evaluator'], 'the stream holds the declared durable only');

  await (await admin.kvm.open(BUCKETS.policy)).put(POLICY_KEYS.version, enc('v1'));
  await (await admin.objm.open(OBJECT_STORES.weights)).putBlob({ name: 'policy/v1-a' }, enc('w1'));
  const agent = await connectAs(t, config, 'agent');
  const watch = await followKv(await agent.kvm.open(BUCKETS.policy), POLICY_KEYS.version);
  t.teardown(() => watch.close());
  for await (const e of watch) {
    t.equal(dec(e.value), 'v1', 'the agent watches the policy version (a consumer nats.js names, on the bucket it reads)');
    break;
  }
  t.equal(dec((await (await agent.objm.open(OBJECT_STORES.weights)).getBlob('policy/v1-a'))!), 'w1', 'and downloads weights');
  t.match(await refusal('agent', () => agent.jsm.consumers.add(STREAMS.jobsRollout, { ...mine, filter_subject: SUBJECTS.jobRollout, name: 'mine' })), { subject: api(`CONSUMER.CREATE.${STREAMS.jobsRollout}.mine.${SUBJECTS.jobRollout}`), code: 'PERMISSION_DENIED' }, 'but names no consumer on its job queue');
  t.match(await refusal('agent', () => followStream(agent, { stream: STREAMS.trajectories, filter: SUBJECTS.trajRaw, from: 'all' })), { subject: api(`CONSUMER.CREATE.${STREAMS.trajectories}`), code: 'PERMISSION_DENIED' }, 'and follows no stream it does not read');
});
