// No tuning on the test (issue 23): no module the warm start trains on has the knob setting of a near held-out module
// (envs/heldout-near: a library parent with other knob values). The warm start's only knob-edited modules are its
// designer edits (designer rows; stage 3's agent episodes play the seed-3 children of instance-hint parents), made
// here as warmstart/train.ts makes them, for each seed of the shipped recipe's stages (docs/warm-start.md). Real sandbox.
import t from 'tap';
import { isEditable, specNameOf } from '../../actors/designer/index.js';
import { loadTokenizer } from '../../model/index.js';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';
import { DEFAULT_WARM_START_OPTIONS as O, designerEdits, loadLibrary, openDocuments } from '../../warmstart/index.js';
import { knobSetting, nearSettingClashes, nearSettings } from '../envs/heldout-suite.js';

/** The --seed of each stage of the shipped base checkpoint's recipe; every other edit option is the default. */
const RECIPE_SEEDS = [1, 2, 3];

t.test("the warm start's data holds no near-suite knob setting", async (t) => {
  const near = nearSettings();
  t.equal(near.length, 10, 'the near tier has ten modules');
  const tok = loadTokenizer();
  const library = loadLibrary();
  const parents = library.filter((e) => isEditable(e.code) && (O.maxModuleTokens === 0 || tok.encode(e.code).length <= O.maxModuleTokens));
  const reservedNames = new Set(loadLibrary(repoPath('envs', 'heldout')).map((e) => e.spec.name));
  const docs = await openDocuments(O.documents);
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const training = library.map((e) => ({ root: e.name, code: e.code, source: `library ${e.name}` }));
  for (const seed of RECIPE_SEEDS) {
    const { edits, stats } = await designerEdits(pool, parents, docs, { perParent: O.editsPerParent, secondEdits: O.secondEdits, validationSeeds: O.editValidationSeeds, seed, reservedNames });
    t.ok(edits.length > 0, `seed ${seed}: ${stats.valid}/${stats.tried} children validate`);
    const settings = new Map<string, Set<string>>();
    for (const e of edits) settings.set(e.root, (settings.get(e.root) ?? new Set()).add(knobSetting(e.child)));
    t.comment(`seed ${seed} (${docs.kind} documents): ${[...settings].map(([root, s]) => `${root} ${s.size}`).join(', ')} distinct settings`);
    training.push(...edits.map((e) => ({ root: e.root, code: e.child, source: `seed ${seed} depth ${e.depth} ${specNameOf(e.child)?.name} (${e.edits.filter((x) => !x.startsWith('name ')).join('; ')})` })));
  }
  for (const n of near) t.ok(parents.some((p) => p.name === n.parent), `${n.file}: its parent ${n.parent} is a designer parent, so its setting is reachable`);
  const clashes = nearSettingClashes(near, training);
  for (const c of clashes) t.fail(`${c.near} (${c.module.root}: ${c.setting}) is in the warm start's data: ${c.module.source}`);
  t.equal(clashes.length, 0, 'no near-suite setting in the data');
});
