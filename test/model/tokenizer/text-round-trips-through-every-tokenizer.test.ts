// Any string encodes and decodes back exactly, to in-range non-special ids, with the byte-level tokenizer, a
// freshly trained BPE and the shipped vocab.
import t from 'tap';
import { mulberry32, SAMPLE_DOCS } from './helpers.js';
import { everyTokenizer } from './tokenizers.js';

const rnd = mulberry32(7);
const ALPHABET = ['a', 'Z', ' ', '  ', '\n', '\t', '\r\n', '0', '9', '{', '=>', '"', 'é', 'ß', '日', '🙂', '\u0301', '\u00a0', '\u0085', '\u0000', '<|eos|>', '<|', '|>', 'export ', 'return'];
function randomText(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.1) s += String.fromCodePoint(Math.floor(rnd() * 0x10ffff) & ~0x800 | 0x20); // any code point outside the surrogates
    else s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  }
  return s;
}

for (const tok of everyTokenizer()) {
  t.test(`${tok.name}: text round-trips`, async (t) => {
    const cases = [...SAMPLE_DOCS, '', ' ', '\n\n\n', 'x'.repeat(1000), ' '.repeat(300) + 'y', '1234567890'];
    for (let i = 0; i < 300; i++) cases.push(randomText(1 + Math.floor(rnd() * 60)));
    let failures = 0;
    for (const text of cases) {
      const ids = tok.encode(text);
      for (const id of ids) if (!(id >= 0 && id < tok.vocabSize) || tok.isSpecial(id)) failures++;
      if (tok.decode(ids) !== text) {
        failures++;
        t.equal(tok.decode(ids), text, 'decode(encode(text))');
      }
    }
    t.equal(failures, 0, `${cases.length} texts round-trip with in-range, non-special ids`);
  });
}
