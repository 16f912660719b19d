// One default model shape: the decoder's, loop.policy.init's, the learner's and the warm start's defaults are all
// DEFAULT_POLICY_MODEL, the shape of the shipped base checkpoint, and so is what a fresh policy initialises.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { DEFAULT_POLICY_MODEL, validateDecoderConfig } from '../../../../model/decoder-config.js';
import { validateLearnerOptions } from '../../../../actors/learner/options.js';
import { validateLoopOptions } from '../../../../actors/loop/options.js';
import { resolvePolicyModel } from '../../../../actors/loop/policy/policy-model.js';
import { validateWarmStartOptions } from '../../../../warmstart/options.js';
import { repoPath } from '../../../../runtime/paths.js';

const shapeOf = (c: Partial<Record<keyof typeof DEFAULT_POLICY_MODEL, unknown>>) =>
  ({ layers: c.layers, width: c.width, heads: c.heads, kvHeads: c.kvHeads, contextLength: c.contextLength });

t.test('every default model shape is the base checkpoint shape', async (t) => {
  const base = JSON.parse(readFileSync(repoPath('model', 'checkpoints', 'base', 'config.json'), 'utf8')) as { model: Record<string, number> };
  t.same(DEFAULT_POLICY_MODEL, shapeOf(base.model), 'DEFAULT_POLICY_MODEL is the shipped checkpoint shape');
  t.same(shapeOf(validateDecoderConfig()), DEFAULT_POLICY_MODEL, 'the decoder config default');
  t.same(shapeOf(validateLoopOptions().policy.init), DEFAULT_POLICY_MODEL, 'loop.policy.init');
  t.same(shapeOf(validateLearnerOptions().model), DEFAULT_POLICY_MODEL, 'the learner model');
  t.same(shapeOf(validateWarmStartOptions().model), DEFAULT_POLICY_MODEL, 'the warm start model');
  const fresh = resolvePolicyModel({ ...validateLoopOptions().policy, checkpoint: null });
  t.same(fresh.kind === 'init' && shapeOf(validateDecoderConfig(fresh.config)), DEFAULT_POLICY_MODEL, 'what a fresh policy initialises');
});
