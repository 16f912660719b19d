// SandboxOptions: defaults are valid, and each bad field is named in the error.
import t from 'tap';
import { DEFAULT_SANDBOX_OPTIONS, SandboxOptionsError, validateSandboxOptions } from '../../sandbox/index.js';

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
  ] as const) {
    let caught: unknown;
    try {
      validateSandboxOptions(opts);
    } catch (e) {
      caught = e;
    }
    t.ok(caught instanceof SandboxOptionsError && caught.field === field && caught.message.includes(`options.${field}`), field);
  }
});
