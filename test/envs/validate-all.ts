// Test helper: validates a list of environment modules in one real SandboxPool (sandbox + kit) and hands each report
// back with its module, so the library and held-out suites check the same way.
import { SandboxPool, type ValidationReport } from '../../sandbox/index.js';

export interface Validated<E> {
  env: E;
  report: ValidationReport;
  /** "stage: detail" of the failing stage, or '' when it passed. */
  failure: string;
}

export async function validateAll<E extends { code: string }>(envs: readonly E[]): Promise<Validated<E>[]> {
  // The call budget is 4x the default: the limit is wall-clock, and on a loaded machine a cold worker can miss 50 ms on
  // noise alone (every env's warm calls take a few ms). Gross slowness still fails; `spade env check` uses the default.
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: 200, wallClockKillMs: 5000 });
  try {
    const reports = await Promise.all(envs.map((e) => pool.validate(e.code)));
    return envs.map((env, i) => {
      const report = reports[i]!;
      const failure = report.failed ? `${report.failed}: ${report.stages[report.stages.length - 1]?.detail}` : '';
      return { env, report, failure };
    });
  } finally {
    await pool.close();
  }
}
