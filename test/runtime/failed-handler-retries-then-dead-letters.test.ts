// A handler that throws is retried with backoff; after max_deliver attempts the job is dead-lettered.
import t from 'tap';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { DeadLetter } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { STREAMS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('transient failures are retried, persistent ones dead-lettered', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]); // maxDeliver=3, backoff 100/200 ms
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'retry-host', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());

  await publishJobs(conn, ['flaky'], { failTimes: 2 });
  await publishJobs(conn, ['doomed'], { failTimes: 100 });
  const results = await collectResults(conn, 1);
  t.equal(results[0]!.id, 'flaky');
  t.equal(results[0]!.deliveryCount, 3, 'succeeded on the third delivery');

  const ci = await conn.jsm.consumers.add(STREAMS.deadLetters, { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, inactive_threshold: 30e9 });
  const msgs = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  for await (const m of msgs as AsyncIterable<JsMsg>) {
    m.ack();
    const l = decode(DeadLetter, m.data);
    t.equal(l.deliveryCount, 3, 'dead-lettered on the last allowed delivery');
    t.match(l.reason, /failed on delivery 3 of 3: job doomed fails on purpose/);
    break;
  }
  await msgs.close();
  t.equal(host.stats.handled, 1);
  t.equal(host.stats.deadLettered, 1);
});
