// A held message the actor abandons (as a crashed learner does) is no longer kept alive: the server redelivers it
// once ack_wait (counted from its last in-progress ack) has passed, and not before.
import t from 'tap';
import { holdOneJob } from '../helpers/holder.js';

t.test('abandoned: redelivered after ack_wait', async (t) => {
  const { host, actor, first: h1 } = await holdOneJob(t, 'crash');
  const second = actor.next();
  const t0 = Date.now();
  h1.held.abandon();
  const h2 = await second;
  // ack_wait runs from the last in-progress ack, which the host sends every ackWaitMs / 3: at least 2/3 of it is left.
  t.ok(Date.now() - t0 >= 600, `redelivered once ack_wait ran out (${Date.now() - t0} ms after the abandon)`);
  t.equal(h2.deliveryCount, 2);
  t.equal(host.stats.naked, 0, 'not nak\'ed: it came back by expiry');
  await h2.held.ack();
});
