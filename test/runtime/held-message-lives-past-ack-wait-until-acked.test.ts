// A message the handler holds (deferred ack) outlives ack_wait: the host keeps it alive with in-progress acks, the
// server never redelivers it, and it is acked (confirmed) only when the actor acks it.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { STREAMS } from '../../runtime/subjects.js';
import { holdOneJob } from '../helpers/holder.js';

t.test('held for 2.5 ack_waits, then acked', async (t) => {
  const { conn, host, first: { held, deliveryCount } } = await holdOneJob(t, 'held');
  t.equal(deliveryCount, 1);
  const info = () => conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  await sleep(2_500); // the behaviour under test is time passing: longer than two ack_waits
  t.equal((await info()).num_redelivered, 0, 'never redelivered while held');
  t.equal((await info()).num_ack_pending, 1, 'still unacked');
  t.equal(host.stats.handled, 0, 'not counted as handled before the ack');
  await held.ack();
  t.equal((await info()).num_ack_pending, 0, 'acked once the actor acks it');
  t.equal(host.stats.handled, 1);
});
