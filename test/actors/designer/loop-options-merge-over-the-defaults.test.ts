// LoopOptions: any subset at any depth merges over the defaults (siblings keep theirs, nothing aliases them); a
// cluster config without a loop section yields the defaults.
import t from 'tap';
import { DEFAULT_LOOP_OPTIONS, loopOptionsOf, validateLoopOptions } from '../../../actors/loop/options.js';

t.test('merge and defaults', async (t) => {
  const o = validateLoopOptions({ k: 2, agent: { maxTokens: 12 }, policy: { init: { layers: 3 } }, ablations: { noMemory: true } });
  t.equal(o.k, 2);
  t.equal(o.agent.maxTokens, 12);
  t.equal(o.agent.temperature, DEFAULT_LOOP_OPTIONS.agent.temperature, 'siblings keep their defaults');
  t.equal(o.policy.init.layers, 3);
  t.equal(o.policy.init.width, DEFAULT_LOOP_OPTIONS.policy.init.width);
  t.same(o.ablations, { ...DEFAULT_LOOP_OPTIONS.ablations, noMemory: true });
  t.same(loopOptionsOf({ roles: {} }), DEFAULT_LOOP_OPTIONS);
  t.equal(loopOptionsOf({ loop: { k: 8 } }).k, 8);
  t.not(validateLoopOptions().memory, DEFAULT_LOOP_OPTIONS.memory, 'the result does not alias the defaults');
  t.same(validateLoopOptions({ sandbox: { limits: { callTimeoutMs: 200 } } }).sandbox, { mode: 'remote', workers: 1, limits: { callTimeoutMs: 200 } });
});
