// A work-queue consumer deleted under a running host (an operator mistake, a lost stream) does not crash the host:
// it re-subscribes once the consumer is declared again and goes on serving.
import t from 'tap';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { STREAMS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('host survives its consumer being deleted and recreated', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const lines: string[] = [];
  const host = new ActorHost({ conn, config, hostId: 'survivor', log: (l) => lines.push(l) });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());
  await conn.jsm.consumers.delete(STREAMS.jobsEcho, 'spade-echo');
  await ensureTopology(conn, config);
  await publishJobs(conn, ['after-loss']);
  const [r] = await collectResults(conn, 1, 60_000);
  t.equal(r!.id, 'after-loss', 'served after the consumer came back');
});
