// SandboxOptions from the cluster config: bad limits name their config path, and a pool size there is refused.
import t from 'tap';
import { validateSandboxLimits } from '../../sandbox/index.js';
import { OptionsError } from '../../runtime/options.js';

t.test('limits from the cluster config name their path and refuse a pool size', async (t) => {
  t.same(validateSandboxLimits({ callTimeoutMs: 200 }).callTimeoutMs, 200);
  t.throws(() => validateSandboxLimits({ callTimeoutMs: 0 }, 'config.loop.sandbox.limits'), { name: 'OptionsError', path: 'config.loop.sandbox.limits.callTimeoutMs' });
  t.throws(() => validateSandboxLimits({ workers: 2 } as never), { name: 'OptionsError', path: 'loop.sandbox.limits.workers', message: /roles\.sandbox\.threads/ });
});
