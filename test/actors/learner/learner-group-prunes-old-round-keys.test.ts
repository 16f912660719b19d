// The learner group's round keys (one commit per part, and the round's trajectory ids) are pruned so that the rounds
// bucket stays the same size over a long run: rounds older than the kept ones go in one stream purge that leaves no
// delete markers, the newest rounds stay readable for a joiner or a late member, the `pruned` key says how far it went,
// and nothing is pruned before its round is older than the kept time. Real nats-server, the all-reduce alone.
import t from 'tap';
import { GroupReduce } from '../../../actors/learner/index.js';
import { isGroupExcludedError } from '../../../actors/learner/group/errors.js';
import { BUCKETS, NATS_SUBJECTS, learnerRoundKey } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(120_000);

const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 50));
};

t.test('old round keys are pruned; the newest rounds stay', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const member = async (hostId: string, keepMs: number): Promise<GroupReduce> => {
    const g = await GroupReduce.start(await connected(t, config), { hostId, roundTimeoutMs: 20_000, heartbeatMs: 100, memberTtlMs: 5_000, keepRounds: 3, keepMs }, 0);
    t.teardown(() => g.close());
    return g;
  };
  const a = await member('learner-a', 0);
  const b = await member('learner-b', 3_600_000); // keeps every round younger than an hour
  await until(() => a.membership.beats['learner-b'] === 0 && b.membership.beats['learner-a'] === 0);
  const messages = async (): Promise<number> => (await conn.jsm.streams.info(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds))).state.messages;

  const sizes: number[] = [];
  const pruned: Array<number | null> = [];
  for (let r = 1; r <= 30; r++) {
    const [ma] = await Promise.all([a.exchange(r, 'meta', new Uint8Array([1])), b.exchange(r, 'meta', new Uint8Array([2]))]);
    const [ga] = await Promise.all([a.exchange(r, 'g0', new Uint8Array(8), ma.members), b.exchange(r, 'g0', new Uint8Array(8), ma.members)]);
    await Promise.all([a.recordIds(r, [`t${r}`]), b.recordIds(r, [`t${r}`])]);
    await Promise.all([a.appliedRound(r, ga.members), b.appliedRound(r, ga.members)]);
    if (r === 10) t.equal(await b.prune(), null, 'nothing is pruned before its round is older than keepMs');
    pruned.push(await a.prune());
    sizes.push(await messages());
  }
  t.same(pruned.slice(0, 3), [null, null, null], 'the first rounds are kept');
  t.same(pruned.slice(3), Array.from({ length: 27 }, (_, i) => i + 1), 'then each round prunes the one keepRounds behind it');
  t.equal(await a.prunedThrough(), 27, 'the pruned key says how far');
  t.ok(sizes.slice(5).every((n) => n === sizes[5]), `the bucket stays at ${sizes[5]} messages (3 keys for each of 3 rounds, and the pruned key)`);
  t.equal(sizes.at(-1), 3 * 3 + 1);
  t.same(await a.roundIds(28), ['t28'], 'the newest rounds are readable');
  t.equal(await a.roundIds(27), null, 'the pruned ones are gone');
  const history = await (await conn.kvm.open(BUCKETS.learnerRounds)).get(learnerRoundKey(1, 'meta'));
  t.equal(history, null, 'without a delete marker left behind');

  // A member far behind cannot commit a pruned round again (the others applied it long ago).
  const late = await member('learner-c', 0);
  const refused = await late.exchange(5, 'meta', new Uint8Array([3]), ['learner-c']).then(() => null, (err: unknown) => err);
  t.ok(isGroupExcludedError(refused) && /pruned rounds up to 27/.test((refused as Error).message), 'a late member is refused a pruned round');
  t.equal(await (await conn.kvm.open(BUCKETS.learnerRounds)).get(learnerRoundKey(5, 'meta')), null, 'and commits nothing for it');
});
