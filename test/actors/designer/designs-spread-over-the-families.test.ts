// Family balance: each design draws a family uniformly from the editable library's, then recalls memory and picks its
// parent within it. With a memory full of one family's entries (the lineage that took over a 12-minute run), designs
// still edit parents of all three families; with the option off, memory's family takes every design.
import t from 'tap';
import type { DesignerDeps } from '../../../actors/designer/design.js';
import { design, editableLibrary, loadLibraryEnvs, pickFamily } from '../../../actors/designer/index.js';
import { newMemoryEntry } from '../../../actors/loop/memory/memory-entry.js';
import { makeRandom } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { scripted, memory, doc } from './scripted-designer.js';

const library = loadLibraryEnvs();
const parents = editableLibrary(library, () => true);
const caesar = library.find((e) => e.name === 'caesar-shift')!;
const lineage = Array.from({ length: 6 }, (_, i) => newMemoryEntry({
  envId: `env-c${i}`, name: `cipher-${i}`, description: 'Decode a shifted word.', family: 'reasoning', codeHash: `h${i}`, code: caesar.code, parents: [], iteration: i, source: 'designer',
}));
const familyOf = (parent: string): string => (parent.startsWith('library:') ? parents.find((p) => `library:${p.name}` === parent)!.family : 'reasoning');

async function families(balance: boolean): Promise<Record<string, number>> {
  const base = tinyLoop({ k: 2 });
  const options = { ...base, designer: { ...base.designer, libraryParents: 0, familyBalance: balance } };
  // An empty completion is rejected before validation: the test reads only which parent each design was shown.
  const deps = { policy: scripted(''), sandbox: null, options, corpus: () => doc, memory: memory(lineage), outcomes: null, parents } as unknown as DesignerDeps;
  const counts: Record<string, number> = {};
  for (let seed = 1; seed <= 30; seed++) {
    const r = await design({ jobId: `job-f${seed}`, iteration: 1, seed }, deps);
    const parent = (r.outputs[0]!.body as { parents: string[] }).parents[0]!;
    counts[familyOf(parent)] = (counts[familyOf(parent)] ?? 0) + 1;
  }
  return counts;
}

t.test('designs spread over the families whatever memory holds', async (t) => {
  t.same(new Set(parents.map((p) => p.family)), new Set(['games', 'reasoning', 'tools']), 'the library has editable parents in all three');
  const draws: Record<string, number> = {};
  const random = makeRandom(7);
  for (let i = 0; i < 3000; i++) {
    const f = pickFamily(parents, random)!;
    draws[f] = (draws[f] ?? 0) + 1;
  }
  t.equal(pickFamily([], random), null, 'no library, no family');
  for (const f of ['games', 'reasoning', 'tools']) t.ok(Math.abs(draws[f]! / 3000 - 1 / 3) < 0.04, `${f} drawn ${draws[f]} of 3000`);

  const balanced = await families(true);
  for (const f of ['games', 'reasoning', 'tools']) t.ok((balanced[f] ?? 0) >= 5, `balanced: ${f} ${balanced[f] ?? 0} of 30`);
  t.same(await families(false), { reasoning: 30 }, 'off: the memory lineage is every parent');
});
