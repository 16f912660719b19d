// Every shipped environment in envs/library passes the real validation pipeline (sandbox + kit), its spec.name
// matches its file name, and it exports an oracle that solves it.
import t from 'tap';
import { envs } from './library-envs.js';
import { validateAll } from './validate-all.js';

t.test('every environment validates', async (t) => {
  for (const { env: e, report: r, failure } of await validateAll(envs)) {
    t.ok(r.ok, `${e.family}/${e.name} validates ${failure}`);
    t.equal(r.spec?.name, e.name, `${e.name}: spec.name is the file name`);
    t.equal(r.spec?.hasOracle, true, `${e.name}: exports an oracle`);
    t.ok((r.stats.oracleMean ?? 0) >= 0.5, `${e.name}: oracle mean ${r.stats.oracleMean}`);
  }
});
