// What an actor still holds when its host drains is nak'ed (after the actor's stop(), which may still ack it) and is
// delivered again to the next host; what stop() acked is gone for good.
import t from 'tap';
import { ActorHost } from '../../runtime/host.js';
import { STREAMS } from '../../runtime/subjects.js';
import { holderActor } from '../helpers/holder.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { publishJobs } from '../helpers/results.js';

t.test('held on drain: one acked by stop(), the other back in the queue', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const a = holderActor();
  const heldJobs: Array<Awaited<ReturnType<typeof a.next>>> = [];
  a.events.on('held', (h) => heldJobs.push(h));
  // stop() acks the first message, as the learner acks what its last checkpoint covers.
  a.stop = async () => void (await heldJobs.find((h) => h.id === 'keep')!.held.ack());
  const hostA = new ActorHost({ conn, config, hostId: 'a', log: () => undefined });
  await hostA.start([() => a], ['echo']);
  const both = new Promise<void>((resolve) => a.events.on('held', () => heldJobs.length === 2 && resolve()));
  await publishJobs(conn, ['keep', 'back']);
  await both;
  await hostA.stop();
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  // A nak'ed message may first go to the drained host's last pull request: pending or ack-pending, one of them.
  t.equal(info.num_ack_pending + info.num_pending, 1, 'only the unsettled one is left');
  t.equal(hostA.stats.handled, 1, 'the one acked by stop() counts as handled');
  t.equal(hostA.stats.naked, 1, 'the unsettled one was nak\'ed');

  const b = holderActor();
  const again = b.next();
  const hostB = new ActorHost({ conn, config, hostId: 'b', log: () => undefined });
  await hostB.start([() => b], ['echo']);
  t.teardown(() => hostB.stop());
  const h = await again;
  t.equal(h.id, 'back', 'the next host gets the unsettled one, never the acked one');
  t.ok(h.deliveryCount >= 2, `a redelivery (delivery ${h.deliveryCount})`);
  await h.held.ack();
  const after = await conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  t.equal(after.num_ack_pending + after.num_pending, 0, 'both done');
});
