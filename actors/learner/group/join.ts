// A learner joining the learner group: it starts from its own checkpoint, unless the group's published state is
// further along; then it takes the group's weights and optimizer moments (state.ts) and the trajectory ids of
// the rounds it missed, so that their redeliveries are recognised here too (rounds pruned from the bucket are past
// redelivery: their ids are not needed).
import { parameterShapes } from '../../../model/index.js';
import { isWeightTransportError } from '../../../weight-sync/index.js';
import type { Connection } from '../../../runtime/connection.js';
import { retry } from '../../../runtime/retry.js';
import { BUCKETS, learnerRoundKey } from '../../../runtime/subjects.js';
import { LearnerStateError } from '../errors.js';
import type { GroupReduce } from './reduce.js';
import { loadGroupState } from './state.js';
import { GroupTrainer } from './trainer.js';
import type { LoadedLearnerModel } from '../learner-model.js';

/**
 * Moves `m` to the group's state when that is newer, noting the rounds it missed in `m.missed`, drives its trainer
 * (on whichever thread it runs) with a GroupTrainer and beats the round it starts from.
 */
export async function joinGroup(conn: Connection, group: GroupReduce, m: LoadedLearnerModel, log?: (line: string) => void): Promise<GroupTrainer> {
  const hostId = group.options.hostId;
  const missed: NonNullable<LoadedLearnerModel['missed']> = [];
  // The others keep publishing while this one loads: a version pruned mid-download is retried with the newer one.
  const g = await retry(`learner group (${hostId}): loading the group's state`, () => loadGroupState(conn, m.config, parameterShapes(m.config)), { attempts: 5, backoffMs: 200, retryable: isWeightTransportError });
  if (g !== null && g.round > m.state.updates) {
    // The group is ahead of this host's checkpoint (a join, or a restart after the others went on).
    const pruned = await group.prunedThrough();
    if (pruned > m.state.updates) log?.(`learner: rounds ${m.state.updates + 1}..${Math.min(pruned, g.round)} were pruned from ${BUCKETS.learnerRounds}; their trajectories are final, their ids not logged here`);
    for (let r = Math.max(m.state.updates, pruned) + 1; r <= g.round; r++) {
      const ids = await group.roundIds(r);
      // Every member of a round records its ids before it goes on, so a published state has them for all its rounds.
      if (ids === null) throw new LearnerStateError(`the group's state is at round ${g.round}, but the trajectory ids of round ${r} are not in ${BUCKETS.learnerRounds}: ${hostId} cannot tell which trajectories that round applied, and would apply their redeliveries again`, { round: r, field: learnerRoundKey(r, 'ids') });
      missed.push([r, ids]);
    }
    await m.trainer.load(g);
    m.state = { ...m.state, version: g.version, updates: g.round };
    m.origin = 'group';
  }
  const trainer = await GroupTrainer.start(m.trainer, group, m.state.updates);
  m.missed = missed;
  await group.appliedRound(m.state.updates);
  return trainer;
}

