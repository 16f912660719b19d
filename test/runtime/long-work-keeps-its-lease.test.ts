// Work longer than ack_wait is kept alive by in-progress acks (no redelivery); work past the role's
// task timeout is aborted, retried, and finally dead-lettered.
import t from 'tap';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { STREAMS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('a task twice as long as ack_wait is not redelivered', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], ['delivery.ackWaitMs=1000']);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'lease', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());
  await publishJobs(conn, ['slow'], { workMs: 2_500 });
  const [r] = await collectResults(conn, 1);
  t.equal(r!.deliveryCount, 1, 'finished on its first delivery');
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  t.equal(info.num_redelivered, 0, 'the server never redelivered it');
});

t.test('a task past taskTimeoutMs is aborted and retried, then dead-lettered', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], ['roles.echo.taskTimeoutMs=300']);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'timeout', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());
  await publishJobs(conn, ['stuck'], { workMs: 60_000 });
  while (host.stats.deadLettered < 1) await new Promise((r) => setTimeout(r, 50));
  t.equal(host.stats.failed, 3, 'three attempts, each aborted by the timeout');
  t.equal(host.stats.handled, 0);
});
