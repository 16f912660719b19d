// A wording edit replaces known words inside string and template literals only (never identifiers, comments, regular
// expressions or `${}` expressions), with the same synonym at every occurrence and the capital kept.
import t from 'tap';
import { makeRandom } from '../../sandbox/index.js';
import { proseSpans, reword } from '../../warmstart/index.js';

const CODE = [
  '// stop here: a comment keeps its words',
  'const stop = 1;',
  "const say = 'Say stop to end.';",
  'const re = /stop/;',
  "const t = `Stop at ${stop + 'stop'.length} now, stop.`;",
  'if (a === "stop") x();',
].join('\n');

t.test('rewording replaces prose words consistently and nothing else', async (t) => {
  const spans = proseSpans(CODE).map((s) => CODE.slice(s.start, s.end));
  t.same(spans, ['Say stop to end.', 'Stop at ', 'stop', ' now, stop.', 'stop'], 'strings and template text, not the regex or the comment');
  const r = reword(CODE, makeRandom(1), 1, { stop: ['halt'] })!;
  t.same(r.edits, ['stop→halt']);
  t.equal(r.code, [
    '// stop here: a comment keeps its words',
    'const stop = 1;',
    "const say = 'Say halt to end.';",
    'const re = /stop/;',
    "const t = `Halt at ${stop + 'halt'.length} now, halt.`;",
    'if (a === "halt") x();',
  ].join('\n'));
  t.equal(reword('const n = 1;', makeRandom(1)), null, 'no known word: no edit');
  const many = reword("const a = 'number of tries; guess the code';", makeRandom(2))!;
  t.ok(many.edits.length >= 1 && many.edits.length <= 4, `1 to 4 words reworded (${many.edits.join(', ')})`);
  t.notMatch(many.code, new RegExp(`\\b(${many.edits.map((e) => e.split('→')[0]).join('|')})\\b`), 'every occurrence of a chosen word replaced');
});
