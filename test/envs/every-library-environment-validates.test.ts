// Every shipped environment in envs/library passes the real validation pipeline (sandbox + kit), its spec.name
// matches its file name, and it exports an oracle that solves it.
import t from 'tap';
import { SandboxPool, type ValidationReport } from '../../sandbox/index.js';
import { envs } from './library-envs.js';

t.test('every environment validates', async (t) => {
  // The call budget is 4x the default: the limit is wall-clock, and on a loaded machine a cold worker can miss 50 ms on
  // noise alone (every env's warm calls take a few ms). Gross slowness still fails here; `spade env check` uses the default.
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: 200, wallClockKillMs: 5000 });
  t.teardown(() => pool.close());
  const reports: ValidationReport[] = await Promise.all(envs.map((e) => pool.validate(e.code)));
  envs.forEach((e, i) => {
    const r = reports[i]!;
    const failure = r.failed ? `${r.failed}: ${r.stages[r.stages.length - 1]?.detail}` : '';
    t.ok(r.ok, `${e.family}/${e.name} validates ${failure}`);
    t.equal(r.spec?.name, e.name, `${e.name}: spec.name is the file name`);
    t.equal(r.spec?.hasOracle, true, `${e.name}: exports an oracle`);
    t.ok((r.stats.oracleMean ?? 0) >= 0.5, `${e.name}: oracle mean ${r.stats.oracleMean}`);
  });
});
