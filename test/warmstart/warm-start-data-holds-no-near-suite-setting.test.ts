// No tuning on the test (issue 23): no module the warm start trains on has the knob setting of a near held-out module
// (envs/heldout-near: a library parent with other knob values). The warm start's only knob-edited modules are its
// designer edits (designer rows; stage 3's agent episodes play the seed-3 children of instance-hint parents), made
// here from the parents and plan warmstart/train.ts uses (designerEditInputs), for each seed of the shipped recipe's
// stages (docs/warm-start.md), as a warm start would make them today (the counts that page gives came from the library
// before DIGITS and ID_DIGITS were knobs and before near settings were reserved). Real sandbox.
import t from 'tap';
import { specNameOf } from '../../actors/designer/index.js';
import { loadTokenizer } from '../../model/index.js';
import { SandboxPool } from '../../sandbox/index.js';
import { designerEditInputs, designerEdits, loadLibrary, openDocuments, validateWarmStartOptions } from '../../warmstart/index.js';
import { knobSetting, nearSettingClashes, nearSettings } from '../envs/heldout-suite.js';

/** The --seed of each stage of the shipped base checkpoint's recipe; the edit options of all three are the defaults. */
const RECIPE_SEEDS = [1, 2, 3];

t.test("the warm start's data holds no near-suite knob setting", async (t) => {
  const near = nearSettings();
  t.equal(near.length, 10, 'the near tier has ten modules');
  const tok = loadTokenizer();
  const library = loadLibrary();
  const docs = await openDocuments(validateWarmStartOptions().documents);
  const editors = new Set<string>();
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const training = library.map((e) => ({ root: e.name, code: e.code, source: `library ${e.name}` }));
  for (const seed of RECIPE_SEEDS) {
    const { parents, plan } = designerEditInputs(validateWarmStartOptions({ seed }), library, tok);
    for (const p of parents) editors.add(p.name);
    const { edits, stats } = await designerEdits(pool, parents, docs, plan);
    t.ok(edits.length > 0, `seed ${seed}: ${stats.valid}/${stats.tried} children validate`);
    const settings = new Map<string, Set<string>>();
    for (const e of edits) settings.set(e.root, (settings.get(e.root) ?? new Set()).add(knobSetting(e.child)));
    t.comment(`seed ${seed} (${docs.kind} documents): ${[...settings].map(([root, s]) => `${root} ${s.size}`).join(', ')} distinct settings`);
    training.push(...edits.map((e) => ({ root: e.root, code: e.child, source: `seed ${seed} depth ${e.depth} ${specNameOf(e.child)?.name} (${e.edits.filter((x) => !x.startsWith('name ')).join('; ')})` })));
  }
  for (const n of near) t.ok(editors.has(n.parent), `${n.file}: its parent ${n.parent} is one the warm start edits`);
  const clashes = nearSettingClashes(near, training);
  for (const c of clashes) t.fail(`${c.near} (${c.module.root}: ${c.setting}) is in the warm start's data: ${c.module.source}`);
  t.equal(clashes.length, 0, 'no near-suite setting in the data');
});
