// The designer shows one parent's code in its prompt (a recalled memory entry with code, else an editable library
// module), lists that parent first among the new environment's parents, takes the parent's family, and stores the
// accepted module's code in memory so later designs can edit it. Real sandbox, scripted completion.
import t from 'tap';
import type { DesignerDeps } from '../../../actors/designer/design.js';
import { design, editableLibrary, loadLibraryEnvs } from '../../../actors/designer/index.js';
import { PARENT_INTRO } from '../../../actors/loop/prompts.js';
import type { AcceptedEnv } from '../../../actors/loop/messages.js';
import { newMemoryEntry } from '../../../actors/loop/memory/memory-entry.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { tok, scripted, memory, doc } from './scripted-designer.js';

const library = loadLibraryEnvs();
const door = library.find((e) => e.name === 'door-code')!;
const child = door.code.replace("name: 'door-code'", "name: 'harbour-code'").replace('const CODES = 4;', 'const CODES = 5;');

t.test('the designer edits a parent and remembers its code', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const options = tinyLoop({ k: 2 });
  const parents = editableLibrary(library, () => true);

  const fresh = memory([]);
  const d1 = { policy: scripted(child), sandbox: pool, options, corpus: () => doc, memory: fresh, outcomes: null, parents } as DesignerDeps & { policy: ReturnType<typeof scripted> };
  const r1 = await design({ jobId: 'job-p1', iteration: 1, seed: 3 }, d1);
  t.ok(r1.accepted, 'the child validates');
  const env1 = r1.outputs[0]!.body as AcceptedEnv;
  t.match(env1.parents[0], /^library:/, 'empty memory: a library parent, listed first');
  const shown = parents.find((p) => `library:${p.name}` === env1.parents[0])!;
  t.ok(tok.decode(d1.policy.prompts[0]!).includes(`${PARENT_INTRO}\n${shown.code}`), 'the prompt shows the parent code');
  t.equal(env1.family, shown.family, "the family is the parent's");
  t.equal(fresh.added[0]!.code, child.trim(), 'the memory entry keeps the code');

  const entry = { ...newMemoryEntry({ envId: 'env-mem', name: 'gate-code', description: 'Doors.', family: 'reasoning', codeHash: 'h', code: door.code, parents: [], iteration: 0, source: 'designer' }) };
  const withParent = memory([entry]);
  const o2 = { ...options, designer: { ...options.designer, libraryParents: 0, familyBalance: false } };
  const d2 = { policy: scripted(child), sandbox: pool, options: o2, corpus: () => doc, memory: withParent, outcomes: null, parents } as DesignerDeps & { policy: ReturnType<typeof scripted> };
  const r2 = await design({ jobId: 'job-p2', iteration: 2, seed: 4 }, d2);
  const env2 = r2.outputs[0]!.body as AcceptedEnv;
  t.same(env2.parents, ['env-mem'], 'the memory parent, once');
  t.equal(env2.family, 'reasoning');
  t.ok(tok.decode(d2.policy.prompts[0]!).includes(`${PARENT_INTRO}\n${door.code}`), "the memory entry's code is the parent");
});
