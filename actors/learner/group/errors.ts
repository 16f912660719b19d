// Typed errors of the learner group: a member dropped from a round, a committed contribution that never arrived,
// and members whose weights differ after the same rounds. `data` names the round, the part and the members.
import { coded, guard } from '../../../runtime/spade-error.js';
import { LearnerError } from '../errors.js';

/** This member's contribution came too late: the round was committed without it (it must catch up or rejoin). */
export class GroupExcludedError extends coded(LearnerError, 'LEARNER_GROUP_EXCLUDED') {}

/** A contribution the committed round sums never reached this member: its weights can no longer follow the group. */
export class GroupOutOfSyncError extends coded(LearnerError, 'LEARNER_GROUP_OUT_OF_SYNC') {}

/** Members reported different weight hashes at the start of a round: the group's bits no longer agree. */
export class GroupDivergedError extends coded(LearnerError, 'LEARNER_GROUP_DIVERGED') {}

export const isGroupExcludedError = guard(GroupExcludedError);
export const isGroupOutOfSyncError = guard(GroupOutOfSyncError);
export const isGroupDivergedError = guard(GroupDivergedError);
