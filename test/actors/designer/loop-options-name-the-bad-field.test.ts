// LoopOptions: any subset at any depth merges over the defaults; a bad or unknown field throws OptionsError
// naming its dotted path under `loop` and what was expected; a cluster config without a loop section yields the defaults.
import t from 'tap';
import { DEFAULT_LOOP_OPTIONS, loopOptionsOf, validateLoopOptions } from '../../../actors/loop/options.js';
import { isOptionsError } from '../../../runtime/options.js';

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

t.test('errors name the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ k: 0 }, 'loop.k'],
    [{ agent: { maxTokens: 1.5 } }, 'loop.agent.maxTokens'],
    [{ designer: { topP: 0 } }, 'loop.designer.topP'],
    [{ memory: { frontierFraction: 2 } }, 'loop.memory.frontierFraction'],
    [{ ablations: { fixedEnvs: 'yes' } }, 'loop.ablations.fixedEnvs'],
    [{ policy: { init: { width: 30, heads: 4 } } }, 'loop.policy.init.width'],
    [{ policy: { checkpoint: '' } }, 'loop.policy.checkpoint'],
    [{ sandbox: { mode: 'cloud' } }, 'loop.sandbox.mode'],
    [{ agent: { maxTokenz: 3 } }, 'loop.agent.maxTokenz'],
    [{ agent: { timeoutRetries: -1 } }, 'loop.agent.timeoutRetries'],
    [{ corpus: 'x' }, 'loop.corpus'],
    [{ evaluator: { tau: 2 } }, 'loop.evaluator.tau'],
    [{ learner: { clipEps: 0 } }, 'loop.learner.clipEps'],
    [{ learner: { colour: 1 } }, 'loop.learner.colour'],
    [{ sandbox: { limits: { callTimeoutMs: 0 } } }, 'loop.sandbox.limits.callTimeoutMs'],
    [{ sandbox: { limits: { callTimeoutMz: 10 } } }, 'loop.sandbox.limits.callTimeoutMz'],
    [{ sandbox: { limits: { workers: 2 } } }, 'loop.sandbox.limits.workers'],
  ];
  for (const [input, field] of cases) {
    try {
      validateLoopOptions(input as never);
      t.fail(`${field}: accepted`);
    } catch (err) {
      t.ok(isOptionsError(err) && err.path === field && err.message.startsWith(`${field}: `), `${field}: ${(err as Error).message}`);
      t.match((err as Error).message, /: (expected .+, got .+|unknown field \(known: .+\))$/, 'says what was expected and what it got');
    }
  }
});
