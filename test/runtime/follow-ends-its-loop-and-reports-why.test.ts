// runtime/follow.ts as nats.js v3 iterators behave: leaving the loop (break) closes the subscription and status()
// ends with `ended`; a durable consumer deleted under a running loop is an error thrown into the loop, and
// status() reports it apart from the data.
import t from 'tap';
import { followDurable, followKv, type FollowStatus } from '../../runtime/follow.js';
import { BUCKETS, STREAMS, durableName } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { publishJobs } from '../helpers/results.js';

t.test('break closes; a deleted consumer throws into the loop', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const kv = await conn.kvm.open(BUCKETS.run);
  await kv.put('a', new Uint8Array([1]));
  const watch = await followKv(kv, 'a');
  const statuses: FollowStatus[] = [];
  const statusDone = (async () => { for await (const s of watch.status()) statuses.push(s); })();
  for await (const e of watch) {
    t.equal(e.key, 'a');
    break;
  }
  await statusDone;
  t.same(statuses.map((s) => s.type), ['ended'], 'break ended the follow');

  await publishJobs(conn, ['x']);
  const work = await followDurable(conn, { stream: STREAMS.jobsEcho, durable: durableName('echo'), maxMessages: 1 });
  const notes: string[] = [];
  const notesDone = (async () => { for await (const s of work.status()) notes.push(s.type); })();
  let got = 0;
  const loop = (async () => {
    for await (const m of work) {
      got++;
      m.ack();
      await conn.jsm.consumers.delete(STREAMS.jobsEcho, durableName('echo'));
    }
  })();
  await t.rejects(loop, 'the deletion is thrown into the loop');
  await notesDone;
  t.equal(got, 1);
  t.equal(notes.at(-1), 'ended');
  t.ok(notes.some((n) => n === 'consumer_deleted' || n === 'consumer_not_found'), `status() said why: ${notes.join(', ')}`);
});
