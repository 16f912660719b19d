// Declaring the topology while JetStream does not answer (the host's server is down and the connection reconnecting,
// so each call times out: as for the chaos soak's coordinator restarted 1 s after a cluster server was, whose declare
// failed with `TopologyError: stream SPADE_JOBS_ECHO: timeout` and exited 1) is tried again until the server is back,
// then declares everything. Before the fix the first timeout failed the host's start.
import t from 'tap';
import { join } from 'node:path';
import { openConnection } from '../../runtime/connection.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { declareTopology, missingTopology } from '../../runtime/topology.js';
import { tempDir, testConfig } from '../helpers/nats.js';

t.test('the topology is declared once JetStream answers again', async (t) => {
  const storeDir = join(tempDir(t), 'nats');
  let server = await startNatsServer({ storeDir });
  t.teardown(() => server.kill());
  const config = await testConfig([server.url]);
  // A short JetStream API timeout, so each try while the server is down fails within 2 s.
  const conn = await openConnection(config.nats, 'spade-test', 2_000);
  t.teardown(() => conn.close());

  await server.kill();
  const said: string[] = [];
  let firstFailure: () => void = () => undefined;
  const failed = new Promise<void>((res) => (firstFailure = res));
  const declaring = declareTopology(conn, config, (l) => {
    said.push(l);
    if (/did not answer/.test(l)) firstFailure();
  }, { everyMs: 200 });
  const early = await Promise.race([failed.then(() => 'retrying'), declaring.then(() => 'declared', (err: Error) => `failed: ${err.name}: ${err.message}`)]);
  t.equal(early, 'retrying', 'the first timeout is tried again, not thrown');
  t.match(said[0], /^declaring the topology: JetStream did not answer \(.*timeout.*\); trying again every 200 ms$/, 'said once');

  server = await startNatsServer({ storeDir, port: server.port });
  await declaring;
  t.equal(await missingTopology(conn), undefined, 'every stream, consumer, bucket and the object store exist');
  t.equal(said.at(-1), 'declaring the topology: done', 'and says it is done');
  t.equal(said.filter((l) => /did not answer/.test(l)).length, 1, 'the retries are said once');
});
