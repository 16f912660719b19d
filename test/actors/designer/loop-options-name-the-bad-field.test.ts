// LoopOptions: a bad or unknown field throws OptionsError naming its dotted path under `loop` and what was expected.
import t from 'tap';
import { validateLoopOptions } from '../../../actors/loop/options.js';
import { isOptionsError } from '../../../runtime/options.js';

t.test('errors name the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ k: 0 }, 'loop.k'],
    [{ agent: { maxTokens: 1.5 } }, 'loop.agent.maxTokens'],
    [{ designer: { topP: 0 } }, 'loop.designer.topP'],
    [{ memory: { frontierFraction: 2 } }, 'loop.memory.frontierFraction'],
    [{ ablations: { fixedEnvs: 'yes' } }, 'loop.ablations.fixedEnvs'],
    [{ policy: { init: { width: 30, heads: 4 } } }, 'loop.policy.init.width'],
    [{ policy: { checkpoint: '' } }, 'loop.policy.checkpoint'],
    [{ policy: { shards: 0 } }, 'loop.policy.shards'],
    [{ policy: { shards: 2, ownThread: false } }, 'loop.policy.shards'],
    [{ sandbox: { mode: 'cloud' } }, 'loop.sandbox.mode'],
    [{ agent: { maxTokenz: 3 } }, 'loop.agent.maxTokenz'],
    [{ agent: { timeoutRetries: -1 } }, 'loop.agent.timeoutRetries'],
    [{ corpus: 'x' }, 'loop.corpus'],
    [{ evaluator: { tau: 2 } }, 'loop.evaluator.tau'],
    [{ learner: { objective: { clipEps: 0 } } }, 'loop.learner.objective.clipEps'],
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
