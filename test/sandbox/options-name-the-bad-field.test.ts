// SandboxOptions: defaults are valid, and each bad or unknown field is named in the error with what was expected.
import t from 'tap';
import { DEFAULT_SANDBOX_OPTIONS, validateSandboxLimits, validateSandboxOptions } from '../../sandbox/index.js';
import { OptionsError } from '../../runtime/options.js';

t.test('defaults validate and overrides apply', async (t) => {
  t.same(validateSandboxOptions({}), DEFAULT_SANDBOX_OPTIONS);
  t.equal(validateSandboxOptions({ callTimeoutMs: 100 }).callTimeoutMs, 100);
  t.equal(DEFAULT_SANDBOX_OPTIONS.callTimeoutMs, 50);
  t.equal(DEFAULT_SANDBOX_OPTIONS.memoryLimitBytes, 32 * 1024 * 1024);
  t.equal(DEFAULT_SANDBOX_OPTIONS.maxObservationChars, 4096);
  t.equal(DEFAULT_SANDBOX_OPTIONS.maxTurns, 64);
});

t.test('bad fields are named', async (t) => {
  for (const [opts, field] of [
    [{ workers: 0 }, 'workers'],
    [{ callTimeoutMs: -1 }, 'callTimeoutMs'],
    [{ callTimeoutMs: 100, wallClockKillMs: 50 }, 'wallClockKillMs'],
    [{ maxTurns: 1.5 }, 'maxTurns'],
    [{ memoryLimitBytes: 1000 }, 'memoryLimitBytes'],
    [{ workerMemoryCapBytes: 64 * 1024 * 1024 }, 'workerMemoryCapBytes'],
    [{ callTimeoutMz: 100 }, 'callTimeoutMz'],
    [{ kitSource: 3 }, 'kitSource'],
  ] as const) {
    let caught: unknown;
    try {
      validateSandboxOptions(opts as never);
    } catch (e) {
      caught = e;
    }
    t.ok(caught instanceof OptionsError && caught.path === `sandbox.${field}` && caught.message.startsWith(`sandbox.${field}: `), field);
    t.match((caught as Error).message, /: (expected .+, got .+|unknown field \(known: .+\))$/, `${field}: says what was expected`);
  }
});

t.test('limits from the cluster config name their path and refuse a pool size', async (t) => {
  t.same(validateSandboxLimits({ callTimeoutMs: 200 }).callTimeoutMs, 200);
  t.throws(() => validateSandboxLimits({ callTimeoutMs: 0 }, 'config.loop.sandbox.limits'), { name: 'OptionsError', path: 'config.loop.sandbox.limits.callTimeoutMs' });
  t.throws(() => validateSandboxLimits({ workers: 2 } as never), { name: 'OptionsError', path: 'loop.sandbox.limits.workers', message: /roles\.sandbox\.threads/ });
});
