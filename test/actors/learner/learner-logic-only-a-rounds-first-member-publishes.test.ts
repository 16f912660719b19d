// The learner logic decides who publishes a version: a lone learner always; in a learner group only the round's first
// member in host order uploads, and every other member moves to the same version without publishing (the group
// publishes one sequence of versions, each uploaded once). Fed events with no server and no clock.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicBatch, logicOptions } from './tiny.js';

/** A learner of `hostId` that trained one minibatch; returns the effects of its `trained` event. */
function afterRound(hostId: string | undefined, members: string[] | undefined) {
  const o = logicOptions({ group: members !== undefined, hostId });
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(0), [], 0);
  const fx0 = transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: logicBatch('b0'), now: 0 }, o).effects;
  const fx = transition(s, { type: 'trained', stats: TRAINED, members, now: 1 }, o).effects;
  return { s, o, fx0, fx };
}

t.test("only a round's first member publishes its version", async (t) => {
  const alone = afterRound(undefined, undefined);
  t.same(kinds(alone.fx0), ['train']);
  t.same(kinds(alone.fx), ['applied', 'publish'], 'a lone learner uploads every version it makes');
  t.same(alone.fx[1], { type: 'publish', version: 1 });
  t.equal(alone.s.phase, 'publishing', 'and waits for the upload');
  t.equal(alone.s.stats.version, 0, 'its version moves only once published');

  const first = afterRound('h1', ['h1', 'h2']);
  t.same(kinds(first.fx), ['applied', 'publish'], 'the first member in host order uploads');
  t.same(first.fx[1], { type: 'publish', version: 1 });
  t.equal(first.s.phase, 'publishing');
  t.same(kinds(transition(first.s, { type: 'published', version: 1, now: 2 }, first.o).effects), ['checkpoint'], 'then checkpoints');
  t.same(first.s.stats.published, [1]);

  const other = afterRound('h2', ['h1', 'h2']);
  t.same(kinds(other.fx), ['applied', 'checkpoint'], 'another member does not upload: it goes on to its checkpoint');
  t.equal(other.s.stats.version, 1, 'at the version the first member uploads');
  t.same(other.s.stats.published, [1], 'counted as the version it moved to');
  t.equal(other.s.phase, 'checkpointing');

  const lateJoiner = afterRound('h1', ['h0', 'h1']);
  t.notOk(kinds(lateJoiner.fx).includes('publish'), 'host order, not arrival: h0 uploads a round it is in');
  const dropped = afterRound('h3', []);
  t.notOk(kinds(dropped.fx).includes('publish'), 'a round with no members named uploads nothing here');
});
