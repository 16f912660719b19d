// The trainer charges its work to phases for the host's profile: a scoring and a training pass per micro-batch and
// epoch, with their tokens and FLOPs (model/flops.ts), and one optimizer step per epoch; a trainer on its own thread
// reports the same counts with its replies.
import t from 'tap';
import { ModelSession, initParameters } from '../../../model/index.js';
import { microBatches } from '../../../actors/learner/micro-batches.js';
import { TINY } from './tiny.js';
import { localTrainer, rows, startTrainerThread } from './trainer-thread-setup.js';

t.test('score, train and optimizer phases are counted on both placements', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'] });
  const local = localTrainer(session, initParameters(TINY, 1));
  const thread = await startTrainerThread();
  t.teardown(async () => (await local.close(), await thread.close()));
  t.same(local.phases(), {}, 'nothing before an update');

  const rs = rows();
  await local.update(rs);
  await thread.update(rs);
  const p = local.phases(), q = thread.phases();
  const mbs = microBatches(rs, 16).length; // microBatchTokens 16 in the shared options
  t.equal(p.optimizer!.calls, 2, 'one optimizer step per epoch (2)');
  t.equal(p.train!.calls, 2 * mbs, 'one training pass per micro-batch and epoch');
  t.equal(p.score!.calls, 2 * mbs, 'one scoring pass per micro-batch and epoch');
  // The one-piece path (twoPhase off, the default); two-phase's counts are two-phase-update-matches-score-then-train's.
  t.equal(p.train!.flops, 3 * p.score!.flops, 'a training pass counts three forwards of the batch it scores');
  t.ok(p.train!.tokens >= rs.reduce((n, r) => n + r.tokens.length, 0) * 2, 'its tokens include the padding it computes');
  for (const phase of ['score', 'train', 'optimizer']) {
    t.equal(q[phase]?.calls, p[phase]!.calls, `the thread reports ${phase} calls`);
    t.equal(q[phase]?.flops, p[phase]!.flops, `and ${phase} FLOPs`);
  }
});
