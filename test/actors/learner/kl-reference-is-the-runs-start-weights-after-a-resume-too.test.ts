// objective.klBeta holds the policy near the weights the run started from. A learner that resumes from its own
// checkpoint has moved weights, so its reference is read again from the base checkpoint (or regenerated from the
// fresh seed), not taken from what it resumed; a base that no longer fits is refused naming klBeta. And the loaded
// trainer really carries the penalty: its first update reports a KL estimate, which it does not without klBeta.
import t from 'tap';
import { join } from 'node:path';
import { klReference } from '../../../actors/learner/kl-reference.js';
import { isLearnerStateError } from '../../../actors/learner/errors.js';
import { saveLearnerCheckpoint } from '../../../actors/learner/learner-checkpoint.js';
import { loadLearnerModel } from '../../../actors/learner/learner-model.js';
import { mergeLearnerOptions, validateLearnerOptions, type LearnerOptions } from '../../../actors/learner/options.js';
import { trajectoryRows } from '../../../actors/learner/index.js';
import { byteTokenizer, initParameters, parameterShapes, saveCheckpoint, validateDecoderConfig } from '../../../model/index.js';
import { tempDir } from '../../helpers/nats.js';
import { TINY, learnerOptions, traj } from './tiny.js';

const config = validateDecoderConfig(TINY);
const same = (a: ReadonlyMap<string, Float32Array>, b: ReadonlyMap<string, Float32Array>): boolean =>
  a.size === b.size && [...a].every(([n, w]) => { const v = b.get(n); return v !== undefined && v.length === w.length && w.every((x, i) => x === v[i]); });
const options = (extra: LearnerOptions) => validateLearnerOptions(learnerOptions(mergeLearnerOptions({ host: { ownThread: false } }, extra)));

t.test('the KL reference is the run\'s start weights, after a resume too', async (t) => {
  const base = join(tempDir(t, 'spade-base-'), 'base');
  const baseParams = initParameters(config, 3);
  await saveCheckpoint(base, { model: { ...config }, params: baseParams, shapes: parameterShapes(config), tokenizer: byteTokenizer(), policyVersion: 0, step: 0 });
  const moved = initParameters(config, 1); // what a resumed learner's own checkpoint holds

  const fromBase = await klReference('init-checkpoint', baseParams, config, { init: { checkpoint: base, tokenizer: 'bytes', seed: 0 } });
  t.ok(same(fromBase, baseParams), 'a run from a base refers to the base');
  t.not(fromBase.get('tok_embeddings.weight'), baseParams.get('tok_embeddings.weight'), 'as a copy the trainer cannot move');
  t.ok(same(await klReference('resume', moved, config, { init: { checkpoint: base, tokenizer: 'bytes', seed: 0 } }), baseParams), 'resumed: the base read again, not the resumed weights');
  t.ok(same(await klReference('resume', moved, config, { init: { tokenizer: 'bytes', seed: 5 } }), initParameters(config, 5)), 'resumed from fresh weights: regenerated from init.seed');

  const other = join(tempDir(t, 'spade-base-'), 'wide');
  const wide = validateDecoderConfig({ ...TINY, width: 32, ffnHidden: 64 });
  await saveCheckpoint(other, { model: { ...wide }, params: initParameters(wide, 3), shapes: parameterShapes(wide), tokenizer: byteTokenizer(), policyVersion: 0, step: 0 });
  const err = await klReference('resume', moved, config, { init: { checkpoint: other, tokenizer: 'bytes', seed: 0 } }).catch((e: unknown) => e);
  t.ok(isLearnerStateError(err) && /objective\.klBeta: the reference weights .* do not fit the resumed model/.test(String(err)), String(err));

  // Through loadLearnerModel, resuming a state directory whose weights moved away from the base.
  const state = tempDir(t, 'spade-learner-');
  await saveLearnerCheckpoint(state, { state: { version: 2, updates: 2, applied: 4, dropped: 0, lastStreamSeq: 4 }, model: { ...config }, params: moved, shapes: parameterShapes(config), tokenizer: byteTokenizer() }, 2);
  const rows = trajectoryRows(traj('a', [50, 51, 52], 1, 2), { contextLength: TINY.contextLength!, vocab: TINY.vocab! });
  const update = async (extra: LearnerOptions) => {
    const m = await loadLearnerModel(state, validateLearnerOptions(learnerOptions(mergeLearnerOptions({ host: { ownThread: false }, init: { checkpoint: base } }, extra))), 1);
    t.equal(m.origin, 'resume');
    try {
      return await m.trainer.update(rows);
    } finally {
      await m.trainer.close();
    }
  };
  for (const ownThread of [false, true]) {
    const withKl = await update({ objective: { klBeta: 0.1 }, host: { ownThread } });
    t.ok(withKl.kl !== undefined && withKl.kl > 0, `with klBeta the update reports KL to the base (trainer ${ownThread ? 'on its thread' : 'on this thread'}): ${withKl.kl}`);
  }
  t.equal((await update({})).kl, undefined, 'without it, none');
  t.throws(() => options({ objective: { klBeta: -1 } }), /loop\.learner\.objective\.klBeta/);
});
