// A learner-group member that restarts in the middle of a round (it beats JOINING while it loads) is out of that
// round: the others go on without waiting for its gradient, and it cannot take part in the round again with another
// contribution (the round's metadata was committed with its earlier one: the others would sum and record that).
// Real nats-server, the all-reduce alone.
import t from 'tap';
import { GroupReduce } from '../../../actors/learner/index.js';
import { isGroupExcludedError } from '../../../actors/learner/group/errors.js';
import { JOINING } from '../../../actors/learner/group/reduce.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(60_000);

/** The round `host`'s heartbeat says, as `g` hears it (a watch: no event to await, so checked every 50 ms). */
const beatOf = (g: GroupReduce, host: string): number | undefined => g.membership.beats[host];
const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 50));
};

t.test('a member restarted mid-round is out of that round', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const member = async (hostId: string): Promise<GroupReduce> => {
    const g = await GroupReduce.start(await connected(t, config), { hostId, roundTimeoutMs: 20_000, heartbeatMs: 100, memberTtlMs: 5_000 }, 3);
    t.teardown(() => g.close());
    return g;
  };
  const a = await member('learner-a');
  const b = await member('learner-b');
  await until(() => beatOf(a, 'learner-b') === 3 && beatOf(b, 'learner-a') === 3);
  const [ma] = await Promise.all([a.exchange(4, 'meta', new Uint8Array([1])), b.exchange(4, 'meta', new Uint8Array([2]))]);
  t.same(ma.members, ['learner-a', 'learner-b'], 'both are in round 4');

  // b's learner fails and restarts: it beats JOINING while it loads.
  await b.joining();
  await until(() => beatOf(a, 'learner-b') === JOINING);
  const t0 = Date.now();
  const g0 = await a.exchange(4, 'g0', new Uint8Array(8), ma.members);
  t.same(g0.members, ['learner-a'], 'the gradient part goes on without the restarted member');
  t.ok(Date.now() - t0 < 20_000, 'without waiting out the round timeout');

  const again = await b.exchange(4, 'meta', new Uint8Array([3])).then(() => null, (err: unknown) => err);
  t.ok(isGroupExcludedError(again), 'the restarted member cannot take part in round 4 again');
  t.match(again, { message: /restarted during round 4/ });
  t.equal(b.joinsFrom, 5, 'it takes part from round 5');
});
