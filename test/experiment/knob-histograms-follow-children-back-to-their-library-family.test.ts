// The knob histograms of a run's accepted children: each child is traced through its edited parent (parents[0]) —
// a library module, or an earlier child followed back to one — or, where the chain leaves the archive, by its spec
// name; its `const NAME = <integer>;` knobs (the designer's parser) are counted beside the library module's value.
// A knob the child renamed counts as missing, the new name as a knob of children only; a child of another library
// module, or of nothing known, is unattributed. Pooling runs adds their counts.
import t from 'tap';
import { mergeKnobDrift, readFrontierUnits } from '../../experiment/index.js';
import { libraryModule, writeRunArchive } from '../helpers/run-archive.js';

const acc = (envId: string, name: string, parents: string[]) => ({ envId, iteration: 1, name, family: 'games', parents });

t.test('knob histograms follow children back to their library family', async (t) => {
  const renamed = libraryModule('games/window-search').replace(/^const TOP = 64;/m, 'const MAX = 200;').replaceAll('${TOP}', '${MAX}');
  const dir = writeRunArchive(t, {
    accepted: [
      acc('c1', 'window-search', ['library:window-search']),
      acc('c2', 'window-hunt', ['c1', 'c9']), // a memory child of c1: window-search by lineage, whatever its name
      acc('c3', 'window-search', []), // no parent: its spec name
      acc('c4', 'door-code', ['library:door-code']),
      acc('c5', 'maze-walk', ['library:maze-walk']), // not one of the five
      acc('c6', 'mystery', ['gone']), // a parent outside the archive, a name of no family
      acc('c7', 'window-search', ['library:window-search']),
    ],
    code: {
      c1: libraryModule('games/window-search', { TOP: 100 }),
      c2: libraryModule('games/window-search', { TOP: 128, GUESSES: 7 }),
      c3: libraryModule('games/window-search'),
      c4: libraryModule('reasoning/door-code'),
      c5: libraryModule('games/maze-walk'),
      c6: 'export const spec = {};',
      c7: renamed,
    },
  });
  const k = readFrontierUnits(dir).knobs;
  t.same(Object.keys(k.families).sort(), ['door-code', 'max-pick', 'step-to-mark', 'ticket-close', 'window-search'], 'the five families, children or not');
  t.equal(k.unattributed, 2, 'the maze-walk child and the orphan');
  const ws = k.families['window-search']!;
  t.equal(ws.children, 4);
  t.same(ws.knobs.TOP, { library: 64, values: { 64: 1, 100: 1, 128: 1 }, missing: 1, changed: 2 }, 'TOP: the library ships 64; c7 renamed it');
  t.same(ws.knobs.GUESSES, { library: 6, values: { 6: 3, 7: 1 }, missing: 0, changed: 1 });
  t.same(ws.knobs.WINDOW, { library: 16, values: { 16: 4 }, missing: 0, changed: 0 });
  t.same(ws.knobs.MAX, { library: null, values: { 200: 1 }, missing: 3, changed: 1 }, 'a knob of children only');
  t.same(k.families['door-code']!.knobs.CODES, { library: 4, values: { 4: 1 }, missing: 0, changed: 0 }, 'door-code: the library value');
  t.same(k.families['max-pick']!.children, 0);
  t.ok(Object.values(k.families['max-pick']!.knobs).every((h) => h.library !== null && Object.keys(h.values).length === 0), 'a family without children lists the library values');

  const both = mergeKnobDrift([k, k]);
  t.same([both.families['window-search']!.children, both.unattributed], [8, 4], 'two runs pooled');
  t.same(both.families['window-search']!.knobs.TOP, { library: 64, values: { 64: 2, 100: 2, 128: 2 }, missing: 2, changed: 4 });
  t.same(both.families['window-search']!.knobs.MAX!.missing, 6);
});
