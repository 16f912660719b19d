// The trainer charges its work to phases for the host's profile: a scoring pass (the training graph's forward half)
// and a training pass (its backward half) per micro-batch and epoch, with their tokens and FLOPs (model/flops.ts), and
// one optimizer step per epoch; a trainer on its own thread reports the same counts with its replies.
import t from 'tap';
import { ModelSession, backwardFlops, initParameters, validateDecoderConfig } from '../../../model/index.js';
import { microBatches } from '../../../actors/learner/policy-trainer.js';
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
  // Two-phase passes (the default): the forward half is the scoring pass and the training pass is the backward half
  // alone, two forwards of the batch plus the attention scores it recomputes; the one-piece graph counted three forwards.
  const backward = microBatches(rs, 16).reduce((n, mb) => n + backwardFlops(validateDecoderConfig(TINY), mb.length, Math.max(...mb.map((r) => r.tokens.length))), 0);
  t.equal(p.train!.flops, 2 * backward, 'a training pass counts the backward half of the batch it scores (model/flops.ts backwardFlops)');
  t.ok(p.train!.flops > 2 * p.score!.flops && p.train!.flops < 3 * p.score!.flops, 'which lies between two and three forwards');
  t.ok(p.train!.tokens >= rs.reduce((n, r) => n + r.tokens.length, 0) * 2, 'its tokens include the padding it computes');
  for (const phase of ['score', 'train', 'optimizer']) {
    t.equal(q[phase]?.calls, p[phase]!.calls, `the thread reports ${phase} calls`);
    t.equal(q[phase]?.flops, p[phase]!.flops, `and ${phase} FLOPs`);
  }
});
