// Fitting the designer prompt into the context drops memory lines first, then halves the document, and drops the
// parent only when nothing else is left to cut; a prompt that fits keeps all three.
import t from 'tap';
import { buildDesignerPrompt, loadLibraryEnvs } from '../../../actors/designer/index.js';
import { newMemoryEntry } from '../../../actors/loop/memory/memory-entry.js';
import { PARENT_INTRO } from '../../../actors/loop/prompts.js';
import { tok } from './scripted-designer.js';

const parent = loadLibraryEnvs().find((e) => e.name === 'door-code')!.code;
const doc = 'word '.repeat(300);
const memory = ['a', 'b', 'c'].map((id) => newMemoryEntry({ envId: id, name: id, description: 'A long description. '.repeat(5), family: 'games', codeHash: 'h', parents: [], iteration: 0, source: 'designer' }));

t.test('the designer prompt drops memory, then document, then the parent', async (t) => {
  const parentTokens = tok.encode(parent).length;
  const roomy = buildDesignerPrompt({ format: tok, contextLength: 4096 }, { doc, memory, docChars: 600, maxTokens: 1200, parent });
  t.ok(roomy.parent && roomy.memory.length === 3 && roomy.docChars === 600, 'everything fits');
  t.ok(tok.decode(roomy.tokens).includes(`${PARENT_INTRO}\n${parent}`));
  // Room for the parent plus a little: memory goes first, then the document shrinks, the parent stays.
  const tight = buildDesignerPrompt({ format: tok, contextLength: 2 * (parentTokens + 150) }, { doc, memory, docChars: 600, maxTokens: 1200, parent });
  t.ok(tight.parent, 'the parent is kept');
  t.equal(tight.memory.length, 0, 'memory lines dropped');
  t.ok(tight.docChars < 600, `document cut to ${tight.docChars} characters`);
  const tiny = buildDesignerPrompt({ format: tok, contextLength: 2 * parentTokens }, { doc, memory, docChars: 600, maxTokens: 1200, parent });
  t.notOk(tiny.parent, 'no room: the parent is dropped last');
  t.notOk(tok.decode(tiny.tokens).includes(PARENT_INTRO));
});
