// Warm-start designer rows are built from exactly the designer's prompt format: designerPrompt(...) followed by the
// library module and end of turn, with only the module (and its end of turn) masked in; memory never names the target.
import t from 'tap';
import { loadTokenizer } from '../../model/index.js';
import { designerPrompt, endOfTurn } from '../../actors/loop/prompts.js';
import { makeRandom } from '../../sandbox/index.js';
import { designerExample, loadLibrary, sampleMemory } from '../../warmstart/index.js';

const tok = loadTokenizer();

const library = loadLibrary();

t.test('designer rows', async (t) => {
  const random = makeRandom(3);
  const env = library.find((e) => e.name === 'sum-to-target')!;
  const memory = sampleMemory(library, env.name, 3, random);
  t.notOk(memory.some((m) => m.name === env.name), 'memory never names the target module');
  const ex = designerExample(tok, env, 'A document about trains.', memory);
  const prompt = designerPrompt(tok, { doc: 'A document about trains.', memory });
  t.same(ex.tokens.slice(0, prompt.length), prompt);
  t.equal(tok.decode(ex.tokens.slice(prompt.length, -1)), env.code);
  t.equal(ex.tokens.at(-1), endOfTurn(tok));
  t.equal(ex.mask.length, ex.tokens.length - 1);
  t.equal(ex.mask.reduce((a, b) => a + b, 0), ex.tokens.length - prompt.length, 'module tokens and end of turn only');
});
