// Warm-start designer rows are built from exactly the loop's designer prompt: designerPrompt(...) with the parent's
// code, followed by the child module and end of turn, with only the child (and its end of turn) masked in; memory
// never names the root library module.
import t from 'tap';
import { loadTokenizer } from '../../model/index.js';
import { designerPrompt, endOfTurn, PARENT_INTRO } from '../../actors/loop/prompts.js';
import { makeRandom } from '../../sandbox/index.js';
import { designerEditExample, loadLibrary, mutate, sampleMemory, type DesignerEdit } from '../../warmstart/index.js';

const tok = loadTokenizer();
const library = loadLibrary();

t.test('designer rows edit a parent in the designer prompt format', async (t) => {
  const random = makeRandom(3);
  const parent = library.find((e) => e.name === 'door-code')!;
  const doc = 'The harbour ferry sails from the granite pier to the lighthouse island every morning.';
  const m = mutate(parent.code, doc, random)!;
  const edit: DesignerEdit = { root: parent.name, parent: parent.code, child: m.code, doc, edits: m.edits, depth: 1 };
  const memory = sampleMemory(library, edit.root, 3, random);
  t.notOk(memory.some((l) => l.name === edit.root), 'memory never names the root module');
  const ex = designerEditExample(tok, edit, memory);
  const prompt = designerPrompt(tok, { doc, memory, parent: parent.code });
  t.same(ex.tokens.slice(0, prompt.length), prompt);
  t.ok(tok.decode(prompt).includes(`${PARENT_INTRO}\n${parent.code}`), 'the prompt shows the parent after its introduction');
  t.equal(tok.decode(ex.tokens.slice(prompt.length, -1)), m.code, 'the completion is the child');
  t.equal(ex.tokens.at(-1), endOfTurn(tok));
  t.equal(ex.mask.length, ex.tokens.length - 1);
  t.equal(ex.mask.reduce((a, b) => a + b, 0), ex.tokens.length - prompt.length, 'child tokens and end of turn only');
});
