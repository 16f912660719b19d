// Messages cross between separate OS processes: this test process publishes jobs, a host process
// (node runtime/start.js) handles them, and the results come back over JetStream.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, testConfig, FAST_DELIVERY } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('a job published here is handled by a host in another process', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = spawnHost(t, ['--nats', server.url, '--role', 'echo', '--host-id', 'proc-a', ...FAST_DELIVERY.flatMap((s) => ['--set', s])]);
  await host.waitFor(/running roles \[echo\]/);
  const ids = Array.from({ length: 20 }, (_, i) => `x${i}`);
  await publishJobs(conn, ids, { bytes: 1024 });
  const results = await collectResults(conn, ids.length);
  t.same(new Set(results.map((r) => r.id)), new Set(ids), 'every job has a result');
  t.ok(results.every((r) => r.pid === host.pid && r.host === 'proc-a'), 'handled by the other process');
  t.ok(results.every((r) => r.bytes === 1024), 'payload crossed intact');
  host.child.kill('SIGTERM');
  const exit = await host.exited;
  t.equal(exit.code, 0, 'host exits 0 after SIGTERM');
  t.match(host.output(), /stopped cleanly \(handled=20 /);
});
