// A handler's outputs whose stream cannot take them for a while (no stream answers the publish, as while a stream
// elects a leader after a server loss) are retried by the host for up to delivery.publishRetryMs: the job is done
// on its first delivery, not failed through its max_deliver attempts and dead-lettered.
import t from 'tap';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { ensureTopology } from '../../runtime/topology.js';
import { STREAMS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('outputs wait out a stream that is gone for a while', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]); // maxDeliver=3, backoff 100/200 ms: ~0.3 s of retries by redelivery
  const conn = await connected(t, config);
  const lines: string[] = [];
  const host = new ActorHost({ conn, config, hostId: 'publish-retry-host', log: (l) => lines.push(l) });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());

  await conn.jsm.streams.delete(STREAMS.results);
  await publishJobs(conn, ['patient']);
  const deadline = Date.now() + 10_000;
  while (!lines.some((l) => /publishing outputs failed/.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.match(lines.join('\n'), /\[echo\] publishing outputs failed \(jetstream is not enabled\); retrying for up to 30000 ms/, 'the host says it is retrying');
  await new Promise((r) => setTimeout(r, 1_500)); // longer than the whole redelivery schedule of the job
  await ensureTopology(conn, config);

  const results = await collectResults(conn, 1);
  t.equal(results[0]?.id, 'patient');
  t.equal(results[0]?.deliveryCount, 1, 'done on its first delivery');
  t.equal(host.stats.deadLettered, 0, 'nothing dead-lettered');
  t.equal(host.stats.failed, 0, 'no attempt failed');
});
