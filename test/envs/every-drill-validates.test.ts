// Every warm-start drill in envs/drills passes the real validation pipeline (sandbox + kit), as a designed module
// would: its spec.name is its file name, and it exports an oracle that solves it.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { validateAll } from './validate-all.js';

const drills = readdirSync(repoPath('envs', 'drills')).filter((f) => f.endsWith('.js'))
  .map((f) => ({ name: basename(f, '.js'), code: readFileSync(repoPath('envs', 'drills', f), 'utf8') }));

t.test('every drill validates', async (t) => {
  t.ok(drills.length > 0, `${drills.length} drills`);
  for (const { env: e, report: r, failure } of await validateAll(drills)) {
    t.ok(r.ok, `${e.name} validates ${failure}`);
    t.equal(r.spec?.name, e.name, `${e.name}: spec.name is the file name`);
    t.equal(r.spec?.hasOracle, true, `${e.name}: exports an oracle`);
    t.ok((r.stats.oracleMean ?? 0) >= 0.5, `${e.name}: oracle mean ${r.stats.oracleMean}`);
  }
});
