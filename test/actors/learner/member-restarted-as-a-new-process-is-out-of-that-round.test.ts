// A learner-group member restarted as a new process (after a SIGKILL) does not know what its previous process pushed,
// yet it must stay out of a round that was committed with that contribution: the others sum and record the previous
// process's metadata (ids, token counts), so a second contribution of the same host would make the members disagree on
// what the round applied. Every contribution carries its process's id (life), pinned by the round's first commit.
// Real nats-server, the all-reduce alone; the killed process is a GroupReduce on its own connection, closed without
// leaving (what it leaves behind is what a SIGKILL leaves: its contribution in the stream).
import t from 'tap';
import { GroupReduce } from '../../../actors/learner/index.js';
import { isGroupExcludedError } from '../../../actors/learner/group/errors.js';
import { ABSENT, JOINING } from '../../../actors/learner/group/reduce.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(60_000);

/** The round `host`'s heartbeat says, as `g` hears it (a watch: no event to await, so checked every 50 ms). */
const beatOf = (g: GroupReduce, host: string): number | undefined => g.membership.beats[host];
const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 50));
};

t.test('a member restarted as a new process is out of the round its previous process contributed to', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const member = async (hostId: string, round: number): Promise<GroupReduce> => {
    const g = await GroupReduce.start(await connected(t, config), { hostId, roundTimeoutMs: 20_000, heartbeatMs: 100, memberTtlMs: 5_000 }, round);
    t.teardown(() => g.close());
    return g;
  };
  const a = await member('learner-a', 3);
  const b1 = await member('learner-b', 3);
  await until(() => beatOf(a, 'learner-b') === 3 && beatOf(b1, 'learner-a') === 3);

  // b's first process starts round 4 (its metadata: trajectories it holds) and is killed before anyone commits.
  const killed = b1.exchange(4, 'meta', new TextEncoder().encode('ids of the first process')).then(() => null, (err: unknown) => err);
  await until(() => a.newestRound === 4);
  await b1.close();

  // Its host starts again as a new process: it beats ABSENT, then JOINING while it loads.
  const b2 = await member('learner-b', ABSENT);
  await b2.joining();
  await until(() => beatOf(a, 'learner-b') === JOINING);
  t.equal(b2.joinsFrom, 1, 'the new process does not know the rounds its previous one pushed to');

  // a starts round 4 too: the previous process's metadata is in, so the commit takes it.
  const meta = await a.exchange(4, 'meta', new TextEncoder().encode('ids of a'));
  t.same(meta.members, ['learner-a', 'learner-b'], 'round 4 is committed with the previous process of learner-b');
  t.equal(new TextDecoder().decode(meta.contributions[1]!), 'ids of the first process', 'and sums its metadata');

  // The new process joins round 4 with its own metadata: refused, since the round already sums its predecessor's.
  const again = await b2.exchange(4, 'meta', new TextEncoder().encode('ids of the second process')).then(() => null, (err: unknown) => err);
  t.ok(isGroupExcludedError(again), 'the new process cannot take part in round 4');
  t.match(again, { message: /restarted as a new process during round 4/ });

  // Its gradient would not count either: the round goes on without learner-b.
  const [g0, bG0] = await Promise.all([
    a.exchange(4, 'g0', new Uint8Array(8), meta.members),
    b2.exchange(4, 'g0', new Uint8Array(8).fill(1), meta.members).then(() => null, (err: unknown) => err),
  ]);
  t.same(g0.members, ['learner-a'], 'the gradient part sums only learner-a');
  t.ok(isGroupExcludedError(bG0), 'and refuses the new process');
  await a.appliedRound(4, g0.members);

  // From the next round on (after loading the group's state at round 4) the new process is in.
  await b2.appliedRound(4);
  await until(() => beatOf(a, 'learner-b') === 4);
  const [m5a, m5b] = await Promise.all([a.exchange(5, 'meta', new Uint8Array([1])), b2.exchange(5, 'meta', new Uint8Array([2]))]);
  t.same(m5a.members, ['learner-a', 'learner-b'], 'round 5 has both');
  t.same(m5b.members, m5a.members, 'and both agree');
  t.ok(await killed, 'the killed process never finished the round');
});
