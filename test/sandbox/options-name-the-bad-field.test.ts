// SandboxOptions: each bad or unknown field is named in the error with what was expected.
import t from 'tap';
import { validateSandboxOptions } from '../../sandbox/index.js';
import { OptionsError } from '../../runtime/options.js';

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
