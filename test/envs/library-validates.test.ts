// Every shipped environment in envs/library passes the real validation pipeline (sandbox + kit), its spec.name matches
// its file name, it exports an oracle, and the library covers the three families with at least 24 environments.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { SandboxPool, type ValidationReport } from '../../sandbox/index.js';
import { repoPath } from '../../runtime/paths.js';

const FAMILIES = ['reasoning', 'tools', 'games'] as const;
const envs = FAMILIES.flatMap((family) =>
  readdirSync(repoPath('envs', 'library', family))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => ({ family, name: basename(f, '.js'), code: readFileSync(repoPath('envs', 'library', family, f), 'utf8') })),
);

t.test('the library has at least 24 environments, at least 8 per family', async (t) => {
  t.ok(envs.length >= 24, `${envs.length} environments`);
  for (const family of FAMILIES) t.ok(envs.filter((e) => e.family === family).length >= 8, family);
});

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
