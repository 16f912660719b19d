// The learner lock keeps its lease when a refresh was written but its reply never came back (a request that timed
// out on a busy host): the next refresh's compare-and-set fails on the newer revision, and finding its own host and
// pid there, the lock goes on from that revision instead of stopping the only learner. A lease another holder wrote
// is still lost. Real nats-server; the landed refresh is written here, as the lock itself would have.
import t from 'tap';
import { LEARNER_LOCK_KEY, LearnerLock } from '../../../actors/learner/learner-lock.js';
import { BUCKETS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(60_000);

const value = (host: string, pid: number): Uint8Array => new TextEncoder().encode(JSON.stringify({ host, pid, ts: Date.now() }));

t.test('a refresh whose reply was lost keeps the lease; a takeover loses it', async (t) => {
  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const kv = await conn.kvm.open(BUCKETS.policy);
  let lost!: () => void;
  const lostLease = new Promise<'lost'>((resolve) => (lost = () => resolve('lost')));
  const got = await LearnerLock.tryAcquire(kv, 'host-a', 600, () => undefined, () => lost());
  if (!('lock' in got)) return void t.fail(`the free lease is held by ${got.holder}`);
  t.teardown(() => got.lock.release());

  /** Resolves with the next revision of the lease written after `after`. */
  const nextWrite = async (after: number): Promise<number> => {
    const w = await kv.watch({ key: LEARNER_LOCK_KEY });
    try {
      for await (const e of w) if (e.revision > after && e.operation === 'PUT') return e.revision;
    } finally {
      w.stop();
    }
    return -1;
  };

  // The lock's own refresh, landed without its reply: the lease moved to a revision the lock does not know.
  const landed = await kv.put(LEARNER_LOCK_KEY, value('host-a', process.pid));
  const after = await Promise.race([nextWrite(landed), lostLease]);
  t.not(after, 'lost', 'the lock refreshed again instead of reporting the lease lost');

  // Another holder's write (another host, or another process of this host): lost.
  await kv.put(LEARNER_LOCK_KEY, value('host-b', process.pid + 1));
  t.equal(await lostLease, 'lost', 'a lease someone else wrote is lost');
});
