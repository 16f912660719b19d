// The designer's parent: the first recalled memory entry with editable code, or an editable library module (always
// when memory offers none, else with probability libraryShare); null when neither exists.
import t from 'tap';
import { pickParent, editableLibrary, loadLibraryEnvs } from '../../../actors/designer/index.js';
import { newMemoryEntry } from '../../../actors/loop/memory/memory-entry.js';
import { makeRandom } from '../../../sandbox/index.js';

const library = loadLibraryEnvs();
const editable = editableLibrary(library, () => true);
const door = library.find((e) => e.name === 'door-code')!;
const entry = (envId: string, code?: string) => newMemoryEntry({
  envId, name: envId, description: 'd', family: 'games', codeHash: 'h', parents: [], iteration: 1, source: 'designer', ...(code !== undefined ? { code } : {}),
});

t.test('the parent comes from memory or the library', async (t) => {
  t.ok(editable.some((e) => e.name === 'door-code') && !editable.some((e) => e.name === 'nim'), 'editable: knobs and a one-line name');
  const recalled = [entry('no-code'), entry('plain', 'export const spec = {};'), entry('child', door.code.replace("'door-code'", "'gate-code'"))];
  const fromMemory = pickParent(recalled, editable, 0, makeRandom(1))!;
  t.equal(fromMemory.id, 'child', 'the first recalled entry with editable code');
  t.equal(fromMemory.family, 'games');
  const fromLibrary = pickParent([entry('no-code')], editable, 0, makeRandom(1))!;
  t.match(fromLibrary.id, /^library:/, 'memory without editable code: a library module');
  t.ok(editable.some((e) => e.code === fromLibrary.code));
  let library = 0;
  const random = makeRandom(7);
  for (let i = 0; i < 400; i++) if (pickParent(recalled, editable, 0.25, random)!.id.startsWith('library:')) library++;
  t.ok(library > 60 && library < 140, `libraryShare 0.25: ${library}/400 library parents`);
  t.equal(pickParent([], [], 0.25, makeRandom(1)), null, 'nothing to edit: no parent');
});
