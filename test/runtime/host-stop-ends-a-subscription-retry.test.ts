// A host whose start is retrying to open a stream subscription (JetStream not answering: its server is down, as
// while a cluster elects a stream leader) is stopped: the retry ends at once, start() fails saying the host stopped,
// and no consumer is opened when the server comes back. Before the stop signal, the retry went on every second after
// the stop and opened the subscription of a stopped host once the server answered.
import t from 'tap';
import { join } from 'node:path';
import type { Actor } from '../../runtime/actor.js';
import { openConnection } from '../../runtime/connection.js';
import { ActorHost } from '../../runtime/host.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { STREAMS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { tempDir, testConfig } from '../helpers/nats.js';

t.test('stopping a host ends its subscription retry', async (t) => {
  const storeDir = join(tempDir(t), 'nats');
  let server = await startNatsServer({ storeDir });
  t.teardown(() => server.kill());
  const config = await testConfig([server.url]);
  // A short JetStream API timeout, so each try while the server is down fails within 2 s.
  const conn = await openConnection(config.nats, 'spade-test', 2_000);
  t.teardown(() => conn.close());
  await ensureTopology(conn, config);
  const consumers = async () => (await conn.jsm.consumers.list(STREAMS.envs).next()).map((c) => c.name).sort();
  const before = await consumers();

  await server.kill();
  let retrying: () => void = () => undefined;
  const saidRetrying = new Promise<void>((res) => (retrying = res));
  const actor: Actor = { role: 'echo', subscriptions: [{ kind: 'stream', stream: STREAMS.envs, filter: SUBJECT_WILDCARDS.env, from: 'all', onMessage: () => undefined }] };
  const host = new ActorHost({ conn, config, hostId: 'stop-retry', log: (l) => void (/did not answer/.test(l) && retrying()) });
  const starting = host.start([() => actor], ['echo']).then(() => 'started', (err: Error & { code?: string; data?: { stopped?: boolean } }) => `${err.name} ${err.code} stopped=${err.data?.stopped}: ${err.message}`);
  await saidRetrying;

  const t0 = Date.now();
  await host.stop();
  const outcome = await Promise.race([starting, new Promise<string>((res) => setTimeout(res, 6_000, 'still retrying').unref())]);
  t.match(outcome, /^HostError HOST stopped=true: following spade\.env\.> on SPADE_ENVS: stopped before JetStream answered$/, 'start fails saying the host stopped');
  t.ok(Date.now() - t0 < 5_000, `within one JetStream timeout of the stop (${Date.now() - t0} ms)`);

  // The server comes back: a retry still running would now open the subscription.
  const back = (async () => {
    for await (const s of conn.nc.status()) if (s.type === 'reconnect') return;
  })();
  server = await startNatsServer({ storeDir, port: server.port });
  await back;
  await new Promise((res) => setTimeout(res, 3_000)); // three retry intervals
  t.same(await consumers(), before, 'no consumer was opened for the stopped host');
});
