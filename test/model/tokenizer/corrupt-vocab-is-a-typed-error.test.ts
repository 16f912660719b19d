// A corrupt vocab (bad merge ids, a vocabSize that disagrees, other specials, a missing file) is rejected with a
// TokenizerError that says what is wrong.
import t from 'tap';
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { isTokenizerError } from '../../../model/errors.js';
import { loadTokenizer, Tokenizer } from '../../../model/tokenizer.js';
import { caught, SAMPLE_DOCS } from './helpers.js';

t.test('a corrupt vocab is rejected with a typed error', async (t) => {
  const j = trainTokenizer(SAMPLE_DOCS, { vocabSize: 300 });
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['merge id past its position', () => new Tokenizer({ ...j, merges: [...j.merges, 5000, 1], vocabSize: j.vocabSize + 1 }), /merges\[/],
    ['vocabSize disagreeing with merges', () => new Tokenizer({ ...j, vocabSize: 9 }), /vocabSize/],
    ['other special tokens', () => new Tokenizer({ ...j, specials: ['<|pad|>'] }), /specials/],
    ['missing file', () => loadTokenizer('/nonexistent/tok.json'), /cannot read tokenizer/],
  ];
  for (const [what, fn, message] of cases) {
    const e = caught(fn);
    t.ok(isTokenizerError(e) && message.test(String(e)), `${what}: ${String(e)}`);
  }
});
