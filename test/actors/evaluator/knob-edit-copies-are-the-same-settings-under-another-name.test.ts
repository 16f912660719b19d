// Under knob edits the evaluator's copy test is the setting index: a designed module is a copy when, its spec name
// aside, it is a library module or an earlier accepted environment byte for byte. A renamed library module is a copy
// of it; one changed knob is a new environment (eval's code similarity would call it a copy); the same new setting
// again, under a third name, is a copy of the first environment that had it.
import t from 'tap';
import { CopyDetector, settingIndex } from '../../../actors/evaluator/index.js';
import { applyKnobEdit, loadLibraryEnvs } from '../../../actors/designer/index.js';
import { libraryNoveltyIndex } from '../../../eval/index.js';

const library = loadLibraryEnvs();
const top = library.find((e) => e.name === 'window-search')!;
const edit = (text: string): string => {
  const r = applyKnobEdit(top.code, text);
  if (!r.ok) throw new Error(r.reason);
  return r.code;
};

t.test('knob-edit copies are the same settings under another name', async (t) => {
  const copies = new CopyDetector(() => settingIndex(library));
  t.equal(await copies.copyOf({ envId: 'a', name: 'x', code: edit('name = cave-search') }), 'games/window-search', 'renamed only: a copy of the library module');
  const moved = edit('name = deep-search\nTOP = 80');
  t.equal(await copies.copyOf({ envId: 'b', name: 'deep-search', code: moved }), null, 'a changed knob: a new environment');
  t.equal(await copies.copyOf({ envId: 'b', name: 'deep-search', code: moved }), null, 'redelivered: the same verdict');
  t.equal(await copies.copyOf({ envId: 'c', name: 'far-search', code: edit('name = far-search\nTOP = 80') }), 'b', 'the same setting again: a copy of the first');
  t.equal(await copies.copyOf({ envId: 'd', name: 'wide-search', code: edit('name = wide-search\nTOP = 81') }), null, 'another value: new');

  // Why not the code-similarity test: it calls the one-knob edit a copy of its parent.
  const bySimilarity = new CopyDetector(() => libraryNoveltyIndex());
  t.equal(await bySimilarity.copyOf({ envId: 'b', name: 'deep-search', code: moved }), 'games/window-search');
});
