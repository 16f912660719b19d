// A learner-group round waits for a member that is loading the group's state to join (it beats JOINING) and counts
// its contribution when it comes within the round timeout, instead of committing without it: a member whose load
// takes longer than a round would otherwise land one round behind after every restart and never get back in.
// Real nats-server, the all-reduce alone.
import t from 'tap';
import { GroupReduce } from '../../../actors/learner/index.js';
import { JOINING } from '../../../actors/learner/group/reduce.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(60_000);

t.test('a round waits for a joining member', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const member = async (hostId: string, round: number): Promise<GroupReduce> => {
    const g = await GroupReduce.start(await connected(t, config), { hostId, roundTimeoutMs: 20_000, heartbeatMs: 100, memberTtlMs: 5_000 }, round);
    t.teardown(() => g.close());
    return g;
  };
  const a = await member('learner-a', 3);
  const b = await member('learner-b', 0);
  await b.joining();
  // a's view of the group: b's JOINING beat has arrived (a watch, no event to await: checked each beat period).
  while (a.membership.beats['learner-b'] !== JOINING) await new Promise((r) => setTimeout(r, 50));

  const t0 = Date.now();
  const exchanged = a.exchange(4, 'meta', new Uint8Array([1]));
  // b finishes loading the group's state at round 3 some time later, then takes part in round 4.
  await new Promise((r) => setTimeout(r, 500));
  await b.appliedRound(3);
  const [ra, rb] = await Promise.all([exchanged, b.exchange(4, 'meta', new Uint8Array([2]))]);
  t.same(ra.members, ['learner-a', 'learner-b'], 'the round counts the member that was joining');
  t.same(rb.members, ra.members, 'and both sum the same contributions');
  t.ok(Date.now() - t0 < 20_000, 'without waiting out the round timeout');
});
