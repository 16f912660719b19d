// Every module of the near held-out tier (envs/heldout-near) passes the real validation pipeline (sandbox + kit) at
// the suite's default 16 seeds and at 100, and its spec.name matches its file name.
import t from 'tap';
import { heldOutFiles } from './heldout-suite.js';
import { validateAll } from './validate-all.js';

const envs = heldOutFiles('heldout-near');

t.test('heldout near validates', async (t) => {
  t.test('the near tier has modules in every family', async (t) => {
    for (const family of ['reasoning', 'tools', 'games']) t.ok(envs.some((e) => e.family === family), `${family} has near-tier modules`);
  });

  t.test('every near-tier module validates, with an oracle', async (t) => {
    for (const { env: e, report: r, failure } of await validateAll(envs)) {
      t.ok(r.ok, `${e.file} validates ${failure}`);
      t.equal(r.spec?.name, e.name, `${e.name}: spec.name is the file name`);
      t.equal(r.spec?.hasOracle, true, `${e.name}: exports an oracle`);
    }
  });
});
