// Every held-out environment (envs/heldout) passes the real validation pipeline (sandbox + kit) with its oracle
// scoring high, and its spec.name matches its file name.
import t from 'tap';
import { heldOutFiles } from './heldout-suite.js';
import { validateAll } from './validate-all.js';

const envs = heldOutFiles();
/** "Scoring high": well above the pipeline's own 0.5 gate, so an oracle that merely scrapes through is caught here. */
const ORACLE_HIGH = 0.9;

t.test('every held-out environment validates, its oracle scoring high', async (t) => {
  for (const { env: e, report: r, failure } of await validateAll(envs)) {
    t.ok(r.ok, `${e.file} validates ${failure}`);
    t.equal(r.spec?.name, e.name, `${e.name}: spec.name is the file name`);
    t.equal(r.spec?.hasOracle, true, `${e.name}: exports an oracle`);
    t.ok((r.stats.oracleMean ?? 0) >= ORACLE_HIGH, `${e.name}: oracle mean ${r.stats.oracleMean} ≥ ${ORACLE_HIGH}`
      + ` (random ${r.stats.randomMean}, best constant ${r.stats.constantMean})`);
  }
});
