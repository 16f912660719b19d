// SIGTERM drains: in-flight work finishes and its result is published, then the host exits 0.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, testConfig, FAST_DELIVERY } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('in-flight work completes during drain', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = spawnHost(t, ['--nats', server.url, '--role', 'echo', ...FAST_DELIVERY.flatMap((s) => ['--set', s])]);
  await host.waitFor(/running roles/);
  await publishJobs(conn, ['long'], { workMs: 1_000 });
  for (;;) {
    const info = await conn.jsm.consumers.info('SPADE_JOBS_ECHO', 'spade-echo');
    if (info.num_ack_pending === 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  host.child.kill('SIGTERM');
  const exit = await host.exited;
  t.equal(exit.code, 0, 'exit 0');
  t.match(host.output(), /draining/);
  t.match(host.output(), /handled=1 /);
  const results = await collectResults(conn, 1, 5_000);
  t.equal(results[0]?.id, 'long', 'the result of the in-flight job was published before exit');
});

t.test('work that outlives the drain timeout is handed back (nak), not lost', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = spawnHost(t, ['--nats', server.url, '--role', 'echo', ...FAST_DELIVERY.flatMap((s) => ['--set', s]), '--set', 'host.drainTimeoutMs=200']);
  await host.waitFor(/running roles/);
  await publishJobs(conn, ['very-long'], { workMs: 30_000 });
  for (;;) {
    const info = await conn.jsm.consumers.info('SPADE_JOBS_ECHO', 'spade-echo');
    if (info.num_ack_pending === 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  host.child.kill('SIGTERM');
  t.equal((await host.exited).code, 0);
  t.match(host.output(), /naked=1/);
  const info = await conn.jsm.consumers.info('SPADE_JOBS_ECHO', 'spade-echo');
  t.equal(info.num_pending + info.num_ack_pending + info.num_redelivered >= 1, true, 'the job is back in the queue');
});
