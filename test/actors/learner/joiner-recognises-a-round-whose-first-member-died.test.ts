// A learner-group member that restarts from the group's published state recognises the redeliveries of every round
// it missed, including a round whose first member (the one that used to record the round's trajectory ids alone) died
// after the round was committed but before recording them: the dead member's own trajectories come back to it after
// ack_wait and must be acked as duplicates, not applied a second time. Real nats-server, two learners in this process;
// a's death is a's group write of the round's ids never completing, then its heartbeats stopping.
import t from 'tap';
import { GroupReduce, readAccounting } from '../../../actors/learner/index.js';
import { GroupReducer } from '../../../actors/learner/group/reducer.js';
import { Learner } from '../../../actors/learner/learner.js';
import type { HeldMessage } from '../../../runtime/actor.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, traj, when } from './tiny.js';

t.setTimeout(120_000);

/** A held message that records what the learner did with it. */
function held(streamSeq: number): HeldMessage & { settled: string[] } {
  const settled: string[] = [];
  return { streamSeq, settled, ack: async () => void settled.push('ack'), release: () => void settled.push('release'), abandon: () => void settled.push('abandon') };
}

const batch = (id: string) => ({ batchId: id, iteration: 0, trajectories: [traj(`${id}-p`, [50, 51], 1, 0), traj(`${id}-q`, [52, 53], -1, 0)] });

t.test('a member restarted from the group state acks the redelivery of a round its first member never recorded', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const options = learnerOptions({ batching: { eta: 1000, minibatchTrajectories: 2 }, cadence: { checkpointEvery: 1 }, group: { enabled: true, roundTimeoutMs: 1_500 } });
  const member = async (hostId: string, stateDir: string): Promise<{ learner: Learner; group: GroupReduce }> => {
    const conn = await connected(t, config);
    const group = await GroupReduce.start(conn, { hostId, roundTimeoutMs: 1_500, heartbeatMs: 200, memberTtlMs: 1_000 }, -2);
    t.teardown(() => group.close());
    const learner = await Learner.create({ conn, hostId, stateDir, reducer: new GroupReducer(conn, group) }, options);
    t.teardown(() => learner.crash());
    return { learner, group };
  };
  const dirA = tempDir(t, 'spade-learner-a-'), dirB = tempDir(t, 'spade-learner-b-');
  const a = await member('learner-a', dirA);
  const b = await member('learner-b', dirB);

  // Round 1, both with data; a is its first member. a "dies" right after the round is committed: its write of the
  // round's ids never completes (so it neither publishes nor acks), then its heartbeats stop.
  a.group.recordIds = () => new Promise<void>(() => undefined);
  await Promise.all([a.learner.receive(batch('a1'), held(1)), b.learner.receive(batch('b1'), held(2))]);
  await when(b.learner, 'update', () => b.learner.stats.updates >= 1);
  await a.group.close();

  // b goes on alone: round 2 is its own, and it publishes the group's state (weights, moments, round 2).
  await b.learner.receive(batch('b2'), held(3));
  await when(b.learner, 'update', () => b.learner.stats.updates >= 2);

  // a restarts (same state directory: its checkpoint predates round 1) and takes the group's state.
  const a2 = await member('learner-a', dirA);
  t.equal(a2.learner.stats.updates, 2, 'the restarted member starts from the group state at round 2');
  const ids = (await readAccounting(dirA)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  t.same([...ids].sort(), ['a1-p', 'a1-q', 'b1-p', 'b1-q', 'b2-p', 'b2-q'], 'its log holds every trajectory of rounds 1 and 2, once');

  // a's own batch of round 1 comes back to it (it was never acked): a duplicate, acked, nothing buffered.
  const redelivered = held(1);
  await a2.learner.receive(batch('a1'), redelivered);
  t.equal(a2.learner.stats.duplicates, 2, 'both its trajectories are duplicates, not applied again');
  t.same(redelivered.settled, ['ack'], 'and the redelivered batch is acked');
});
