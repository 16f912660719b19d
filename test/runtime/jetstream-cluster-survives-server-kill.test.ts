// A 3-node JetStream cluster on loopback with R3 streams keeps serving after one server is killed.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { connected, freePort, natsServer, tempDir, testConfig, FAST_DELIVERY } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';
import { STREAMS, durableName } from '../../runtime/subjects.js';

t.test('R3 work queue survives the loss of a server', { timeout: 180_000 }, async (t) => {
  const t0 = Date.now();
  const dir = tempDir(t, 'spade-cluster-');
  const ports = [await freePort(), await freePort(), await freePort()];
  const routes = ports.map((p) => `nats://127.0.0.1:${p}`);
  const [s1, s2, s3] = await Promise.all(
    ports.map((port, i) => natsServer(t, { dir, name: `n${i + 1}`, cluster: { name: 'spade-test', port, routes: routes.filter((_, j) => j !== i) } })),
  );
  const urls = [s1!.url, s2!.url, s3!.url];
  const config = await testConfig(urls, ['topology.replicas=3', 'topology.storage="memory"']);
  const conn = await connected(t, config, false);
  // The meta leader needs a moment after the routes form; topology creation retries until then.
  for (let i = 0; ; i++) {
    try {
      await import('../../runtime/topology.js').then((m) => m.ensureTopology(conn, config));
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  t.comment(`topology ready after ${Date.now() - t0} ms`);
  const si = await conn.jsm.streams.info(STREAMS.jobsEcho);
  t.equal(si.config.num_replicas, 3, 'work queue is R3');

  const host = spawnHost(t, ['--nats', urls.join(','), '--role', 'echo', '--set', 'topology.replicas=3', '--set', 'topology.storage="memory"', ...FAST_DELIVERY.flatMap((s) => ['--set', s])]);
  await host.waitFor(/running roles/);
  await publishJobs(conn, Array.from({ length: 50 }, (_, i) => `before-${i}`));
  t.equal(new Set((await collectResults(conn, 50)).map((r) => r.id)).size, 50, 'serves with 3 servers');

  // Kill the server leading the work-queue stream: the hardest case.
  const leader = (await conn.jsm.streams.info(STREAMS.jobsEcho)).cluster?.leader;
  const victim = [s1!, s2!, s3!].find((_, i) => `n${i + 1}` === leader) ?? s1!;
  await victim.kill();
  const after = Array.from({ length: 50 }, (_, i) => `after-${i}`);
  for (let i = 0; ; i++) {
    try {
      await publishJobs(conn, after);
      break;
    } catch (err) {
      if (i > 100) throw err; // a new leader is elected within a few seconds
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  t.comment(`published after kill at ${Date.now() - t0} ms`);
  const results = await collectResults(conn, 100, 60_000);
  t.comment(`done at ${Date.now() - t0} ms`);
  const ids = new Set(results.map((r) => r.id));
  if (!after.every((id) => ids.has(id))) {
    // What a failure needs to be understood: what is missing, where the work queue stands, what the host said.
    t.comment(`missing: ${after.filter((id) => !ids.has(id)).join(' ')}`);
    const ci = await conn.jsm.consumers.info(STREAMS.jobsEcho, durableName('echo')).catch((e: Error) => e.message);
    t.comment(`consumer: ${JSON.stringify(ci)}`);
    t.comment(`host output:\n${host.output()}`);
  }
  t.ok(after.every((id) => ids.has(id)), `all ${after.length} jobs published after killing ${leader} were done`);
  t.not((await conn.jsm.streams.info(STREAMS.jobsEcho)).cluster?.leader, leader, 'a new leader took over');
});
