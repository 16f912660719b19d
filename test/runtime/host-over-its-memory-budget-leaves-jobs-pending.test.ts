// A host over host.memoryBudgetMb stops taking jobs: its in-flight job finishes, new jobs stay pending in the
// consumer (for other hosts, or for later), membership says it sheds; once memory is under the lower watermark it
// takes them again. A real nats-server, host and consumer; only the RSS readings are handed in.
import t from 'tap';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { listMembers } from '../../runtime/membership.js';
import { STREAMS, durableName } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

const MB = 2 ** 20;

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

t.test('host over its memory budget leaves jobs pending', async (t) => {
  t.test('over its budget a host leaves new jobs pending and takes them once under the lower watermark', async (t) => {
    const server = await natsServer(t);
    const config = await testConfig([server.url], ['host.memoryBudgetMb=100', 'host.memoryCheckMs=50', 'host.memoryShedAt=0.9', 'host.memoryResumeAt=0.75']);
    const conn = await connected(t, config);
    let rss = 40 * MB;
    const lines: string[] = [];
    const host = new ActorHost({ conn, config, hostId: 'budget-host', log: (l) => lines.push(l), readRss: () => rss });
    await host.start([() => createEchoActor()], ['echo']);
    t.teardown(() => host.stop());
    const consumer = () => conn.jsm.consumers.info(STREAMS.jobsEcho, durableName('echo'));

    await publishJobs(conn, ['in-flight'], { workMs: 1_000 });
    await until('the first job in flight', async () => (await consumer()).num_ack_pending === 1);

    rss = 95 * MB;
    await until('the host to shed', () => host.shedding);
    t.match(lines.join('\n'), /RSS 95 MB is over 0\.9 of host\.memoryBudgetMb \(100 MB\): not taking new jobs/);
    await publishJobs(conn, ['a', 'b', 'c']);
    const first = await collectResults(conn, 1, 10_000);
    t.same(first.map((r) => r.id), ['in-flight'], 'the job in flight when it began to shed finished');
    await until('membership to say it sheds', async () => (await listMembers(conn)).some((m) => m.hostId === 'budget-host' && m.shedding === true && Math.round(m.rssMb ?? 0) === 95));

    // Between the watermarks it still sheds; nothing is pulled, however long it waits (two heartbeats and more).
    rss = 80 * MB;
    await new Promise((r) => setTimeout(r, 1_500));
    const info = await consumer();
    t.equal(info.num_pending, 3, 'the new jobs stay pending in the consumer');
    t.equal(info.num_ack_pending, 0, 'none is held by the host');
    t.equal(host.stats.handled, 1);
    t.equal(host.shedding, true);

    rss = 70 * MB;
    const all = await collectResults(conn, 4, 15_000);
    t.same(new Set(all.map((r) => r.id)), new Set(['in-flight', 'a', 'b', 'c']), 'taken and done once under the lower watermark');
    t.equal(host.shedding, false);
    t.match(lines.join('\n'), /RSS 70 MB is under 0\.75 of host\.memoryBudgetMb \(100 MB\): taking jobs again/);
    t.equal(host.stats.sheds, 1);
    await until('the consumer empty', async () => { const i = await consumer(); return i.num_pending === 0 && i.num_ack_pending === 0; });
  });

  t.test('without a budget the same readings change nothing', async (t) => {
    const server = await natsServer(t);
    const config = await testConfig([server.url], ['host.memoryCheckMs=50']);
    const conn = await connected(t, config);
    const host = new ActorHost({ conn, config, hostId: 'no-budget', log: () => undefined, readRss: () => 10_000 * MB });
    await host.start([() => createEchoActor()], ['echo']);
    t.teardown(() => host.stop());
    await publishJobs(conn, ['x', 'y']);
    const got = await collectResults(conn, 2, 10_000);
    t.same(new Set(got.map((r) => r.id)), new Set(['x', 'y']));
    t.equal(host.shedding, false);
  });

  t.test('a resume watermark at or over the shed one is refused naming the field', async (t) => {
    const config = await testConfig(['nats://127.0.0.1:1'], ['host.memoryBudgetMb=100', 'host.memoryShedAt=0.8', 'host.memoryResumeAt=0.8']);
    t.throws(() => new ActorHost({ conn: {} as never, config, hostId: 'x' }), /host\.memoryResumeAt must be below host\.memoryShedAt/);
  });
});
