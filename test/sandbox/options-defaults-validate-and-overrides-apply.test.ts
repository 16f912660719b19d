// SandboxOptions: the defaults are valid and overrides apply.
import t from 'tap';
import { DEFAULT_SANDBOX_OPTIONS, validateSandboxOptions } from '../../sandbox/index.js';

t.test('defaults validate and overrides apply', async (t) => {
  t.same(validateSandboxOptions({}), DEFAULT_SANDBOX_OPTIONS);
  t.equal(validateSandboxOptions({ callTimeoutMs: 100 }).callTimeoutMs, 100);
  t.equal(DEFAULT_SANDBOX_OPTIONS.callTimeoutMs, 50);
  t.equal(DEFAULT_SANDBOX_OPTIONS.memoryLimitBytes, 32 * 1024 * 1024);
  t.equal(DEFAULT_SANDBOX_OPTIONS.maxObservationChars, 4096);
  t.equal(DEFAULT_SANDBOX_OPTIONS.maxTurns, 64);
});
