// A watcher outlives a nats-server restart (same port and store): once the clients reconnect, the next published
// version still arrives, and the KV record and older objects persisted across the restart.
import t from 'tap';
import { join } from 'node:path';
import { WeightPublisher, WeightWatcher } from '../../weight-sync/index.js';
import type { Connection } from '../../runtime/connection.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { connected, tempDir, testConfig } from '../helpers/nats.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights } from './setup.js';

t.setTimeout(60_000);

async function reconnected(conn: Connection): Promise<void> {
  for await (const s of conn.nc.status()) if (s.type === 'reconnect') return;
}

t.test('restart between two versions', async (t) => {
  const storeDir = join(tempDir(t), 'nats');
  let server = await startNatsServer({ storeDir });
  t.teardown(() => server.kill());
  const config = await testConfig([server.url]);
  const learner = await connected(t, config);
  const sampler = await connected(t, config, false);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES });
  const applied: number[] = [];
  const watcher = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES, retryDelayMs: 100,
    onWeights: (w, v) => {
      applied.push(v);
      t.ok(sameBits(w, smallWeights(v)), `version ${v} intact`);
    },
    onError: () => undefined, // transport errors while the server is away are expected here
  });
  t.teardown(() => watcher.stop());
  await publisher.publish(smallWeights(1), { version: 1, step: 0 });
  await watcher.waitForVersion(1);

  const back = Promise.all([reconnected(learner), reconnected(sampler)]);
  await server.stop();
  server = await startNatsServer({ storeDir, port: server.port });
  await back;
  t.equal((await publisher.current())?.version, 1, 'the record persisted');
  await publisher.publish(smallWeights(2), { version: 2, step: 1 });
  await watcher.waitForVersion(2);
  t.same(applied, [1, 2]);
});
