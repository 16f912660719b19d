// A module's knobs are its whole-line top-level integer and word-list constants, with the spans of their values, and
// its one-line spec name; replacing spans edits exactly those values.
import t from 'tap';
import { isEditable, knobsOf, replaceSpans, specNameOf } from '../../../actors/designer/index.js';

const CODE = `// comment: const NOT = 5;
const CODES = 4;
const TRIES = 3;
const COLOURS = ['red', 'blue',
  'green'];
const MIXED = [1, 'a'];
const EXPR = 2 * 3;

export const spec = {
  name: 'door-code',
  description: 'x',
  maxTurns: TRIES,
};
  const INNER = 7;
`;

t.test('knobs are whole-line top-level constants, and their spans edit just their values', async (t) => {
  const knobs = knobsOf(CODE);
  t.same(knobs.map((k) => [k.kind, k.name, k.value]), [['int', 'CODES', 4], ['int', 'TRIES', 3], ['words', 'COLOURS', ['red', 'blue', 'green']]],
    'integers and word lists only: no comments, mixed arrays, expressions or indented lines');
  for (const k of knobs) t.equal(CODE.slice(k.start, k.end), k.kind === 'int' ? String(k.value) : `['red', 'blue',\n  'green']`, `${k.name}'s span is its value`);
  const name = specNameOf(CODE)!;
  t.equal(name.name, 'door-code');
  t.equal(CODE.slice(name.start, name.end), 'door-code');
  const edited = replaceSpans(CODE, [{ start: knobs[0]!.start, end: knobs[0]!.end, text: '12' }, { start: name.start, end: name.end, text: 'gate-code' }]);
  t.match(edited, /^const CODES = 12;$/m);
  t.match(edited, /name: 'gate-code',/);
  t.equal(edited.length, CODE.length + 1, 'nothing else moved');
  t.ok(isEditable(CODE));
  t.notOk(isEditable('export const spec = { name: "x" };\nconst N = 3;\n'), 'no one-line spec name: not editable');
  t.notOk(isEditable("export const spec = {\n  name: 'plain',\n};\n"), 'no knob: not editable');
});
