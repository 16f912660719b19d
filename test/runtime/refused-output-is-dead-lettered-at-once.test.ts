// An actor whose output its role may not publish: the server refuses the publish, and the host dead-letters the input
// at once (a refusal is not worth retrying), with code PERMISSION_DENIED and a reason naming the role and the subject.
import t from 'tap';
import { ActorHost } from '../../runtime/host.js';
import { DeadLetter, EchoJob, EchoResult } from '../../runtime/message-types.js';
import { decode, encode } from '../../runtime/messages.js';
import { ADMIN } from '../../runtime/permissions.js';
import { STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { consumerFor } from '../../runtime/topology-decls.js';
import { authServer, connectAs } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);

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
  t.equal(d.deliveryCount, 1, 'on the first delivery, not after retries');
  // The host counts the dead letter once it is published (the count may lag the message by a moment).
  for (let i = 0; i < 50 && host.stats.deadLettered < 1; i++) await new Promise((r) => setTimeout(r, 100));
  t.equal(host.stats.deadLettered, 1, 'the host dead-lettered it once');
});
