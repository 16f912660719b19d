// Warm-start designer rows in the knob format (designerOutput 'knobs'): the loop's designer prompt with the parent's
// knob sheet, then exactly the lines the child changes and end of turn, masked in alone. For children of every
// editable library module (unreworded, as the knob format makes them), those lines rebuild the child byte for byte
// through the loop's own splice (applyKnobEdit).
import t from 'tap';
import { loadTokenizer } from '../../model/index.js';
import { designerPrompt, endOfTurn, KNOBS_INTRO } from '../../actors/loop/prompts.js';
import { applyKnobEdit, isEditable, knobEditText, knobSheet } from '../../actors/designer/index.js';
import { makeRandom } from '../../sandbox/index.js';
import { designerEditExample, loadLibrary, mutate, sampleMemory, type DesignerEdit } from '../../warmstart/index.js';

const tok = loadTokenizer();
const library = loadLibrary();
const doc = 'The harbour ferry sails from the granite pier to the lighthouse island every morning with mail and bread.';

t.test('knob rows teach the lines that rebuild the child', async (t) => {
  const random = makeRandom(5);
  const editable = library.filter((e) => isEditable(e.code));
  t.ok(editable.length >= 7, `${editable.length} editable library modules`);
  let checked = 0;
  for (const p of editable)
    for (let i = 0; i < 6; i++) {
      const m = mutate(p.code, doc, random, 0);
      if (!m) continue;
      const lines = knobEditText(p.code, m.code);
      const rebuilt = applyKnobEdit(p.code, lines);
      t.ok(rebuilt.ok && rebuilt.code === m.code, `${p.name} (${m.edits.join(', ')}): the lines rebuild the child`);
      checked++;
    }
  t.ok(checked >= 40, `${checked} children checked`);

  const door = library.find((e) => e.name === 'door-code')!;
  const m = mutate(door.code, doc, random, 0)!;
  const edit: DesignerEdit = { root: door.name, parent: door.code, child: m.code, doc, edits: m.edits, depth: 1 };
  const memory = sampleMemory(library, edit.root, 3, random);
  const ex = designerEditExample(tok, edit, memory, 'knobs');
  const sheet = knobSheet(door.code)!;
  const prompt = designerPrompt(tok, { doc, memory, parentKnobs: sheet });
  t.same(ex.tokens.slice(0, prompt.length), prompt, 'the loop\'s prompt with the knob sheet');
  const shown = tok.decode(prompt);
  t.ok(shown.includes(`${KNOBS_INTRO}\n${sheet}`), 'the sheet follows its introduction');
  t.notOk(shown.includes('const CODES = 4;'), 'the parent\'s code is not shown');
  t.match(sheet, /^door-code: One of the shown codes opens the door\. .*\$\{TRIES\}/, 'the sheet starts with the name and the description as written');
  t.match(sheet, /\nCODES = 4\nTRIES = 3\nDIGITS = 4\nCOLOURS = red, blue, green/, 'a line per knob');
  t.equal(tok.decode(ex.tokens.slice(prompt.length, -1)), knobEditText(door.code, m.code), 'the completion is the changed lines');
  t.ok(ex.tokens.length - prompt.length < 60, `a short completion (${ex.tokens.length - prompt.length} tokens)`);
  t.equal(ex.tokens.at(-1), endOfTurn(tok));
  t.equal(ex.mask.reduce((a, b) => a + b, 0), ex.tokens.length - prompt.length, 'the lines and end of turn only');
});
