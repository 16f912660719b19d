// BPE training gives the same merges for the same text whatever the document order, learns the
// hand-computed merges on a tiny corpus, and the shipped vocab file loads and validates.
import t from 'tap';
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { isTokenizerError } from '../../../model/errors.js';
import { DEFAULT_TOKENIZER, FIRST_MERGE_ID, loadTokenizer, Tokenizer } from '../../../model/tokenizer.js';
import { caught, SAMPLE_DOCS } from './helpers.js';

t.test('same documents, any order: identical merges', async (t) => {
  const a = trainTokenizer(SAMPLE_DOCS, { vocabSize: 500 });
  const b = trainTokenizer(SAMPLE_DOCS, { vocabSize: 500 });
  const c = trainTokenizer([...SAMPLE_DOCS].reverse(), { vocabSize: 500 });
  t.same(a, b, 'repeat run is identical');
  t.same(c.merges, a.merges, 'reversed document order learns the same merges');
  t.ok(a.merges.length / 2 > 50, 'learns merges');
});

t.test('hand-computed merges on "ab ab ab"', async (t) => {
  // Pre-tokens "ab", " ab", " ab": (a,b) occurs 3 times -> merge 0; then (" ", ab) twice -> merge 1;
  // nothing else occurs twice, so training stops below the requested size.
  const j = trainTokenizer(['ab ab ab'], { vocabSize: 1000 });
  t.same(j.merges, [97, 98, 32, FIRST_MERGE_ID]);
  t.equal(j.vocabSize, FIRST_MERGE_ID + 2);
  t.same(new Tokenizer(j).encode('ab ab ab'), [FIRST_MERGE_ID, FIRST_MERGE_ID + 1, FIRST_MERGE_ID + 1]);
});

t.test('the shipped vocab loads', async (t) => {
  const tok = loadTokenizer();
  t.equal(tok.name, DEFAULT_TOKENIZER);
  t.equal(tok.kind, 'bpe');
  t.ok(tok.vocabSize > FIRST_MERGE_ID);
});

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
