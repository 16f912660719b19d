// Two hosts pull from one work queue: every published task is done exactly once across both.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, testConfig, FAST_DELIVERY } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('tasks done equals tasks published, none twice', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const flags = (id: string) => ['--nats', server.url, '--role', 'echo', '--host-id', id, '--set', 'roles.echo.concurrency=4', ...FAST_DELIVERY.flatMap((s) => ['--set', s])];
  const a = spawnHost(t, flags('host-a'));
  const b = spawnHost(t, flags('host-b'));
  await Promise.all([a.waitFor(/running roles/), b.waitFor(/running roles/)]);
  const ids = Array.from({ length: 300 }, (_, i) => `job-${i}`);
  await publishJobs(conn, ids, { workMs: 5 });
  const results = await collectResults(conn, ids.length);
  t.equal(new Set(results.map((r) => r.id)).size, ids.length, 'every task has a result');
  t.equal(results.length, ids.length, 'no task produced two results');
  const byHost = { a: results.filter((r) => r.pid === a.pid).length, b: results.filter((r) => r.pid === b.pid).length };
  t.ok(byHost.a > 0 && byHost.b > 0, `both hosts worked (a=${byHost.a}, b=${byHost.b})`);
  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
  await Promise.all([a.exited, b.exited]);
  const handled = [a, b].map((h) => Number(/handled=(\d+)/.exec(h.output())?.[1] ?? NaN));
  t.equal(handled[0]! + handled[1]!, ids.length, `handler runs across hosts equal tasks published (${handled.join(' + ')})`);
  const info = await conn.jsm.consumers.info('SPADE_JOBS_ECHO', 'spade-echo');
  t.equal(info.num_pending + info.num_ack_pending, 0, 'the queue is empty');
});
