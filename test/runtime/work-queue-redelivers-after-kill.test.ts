// kill -9 of a host mid-task: its unacked work is redelivered after ack_wait and completed by the other host.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, testConfig, FAST_DELIVERY } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('work of a killed host is redone by the survivor', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const flags = (id: string, n: number) => ['--nats', server.url, '--role', 'echo', '--host-id', id, '--set', `roles.echo.concurrency=${n}`, ...FAST_DELIVERY.flatMap((s) => ['--set', s])];
  const victim = spawnHost(t, flags('victim', 2));
  await victim.waitFor(/running roles/);
  // Only the victim runs while the slow jobs are taken, so some are surely in its hands.
  const ids = Array.from({ length: 6 }, (_, i) => `slow-${i}`);
  await publishJobs(conn, ids, { workMs: 1_500 });
  for (;;) {
    const info = await conn.jsm.consumers.info('SPADE_JOBS_ECHO', 'spade-echo');
    if (info.num_ack_pending >= 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  victim.child.kill('SIGKILL');
  const killed = await victim.exited;
  t.equal(killed.signal, 'SIGKILL');
  const survivor = spawnHost(t, flags('survivor', 8));
  await survivor.waitFor(/running roles/);
  const results = await collectResults(conn, ids.length, 60_000);
  t.same(new Set(results.map((r) => r.id)), new Set(ids), 'every job completed');
  t.ok(results.every((r) => r.pid === survivor.pid), 'all by the survivor');
  t.ok(results.some((r) => r.deliveryCount >= 2), 'the victim\'s in-flight jobs were redelivered');
  t.equal(results.length, ids.length, 'no duplicate results');
});
