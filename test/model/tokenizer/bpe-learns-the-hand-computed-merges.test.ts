// BPE training learns the hand-computed merges on the tiny corpus "ab ab ab" and stops below the requested size.
import t from 'tap';
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { FIRST_MERGE_ID, Tokenizer } from '../../../model/tokenizer.js';

t.test('hand-computed merges on "ab ab ab"', async (t) => {
  // Pre-tokens "ab", " ab", " ab": (a,b) occurs 3 times -> merge 0; then (" ", ab) twice -> merge 1;
  // nothing else occurs twice, so training stops below the requested size.
  const j = trainTokenizer(['ab ab ab'], { vocabSize: 1000 });
  t.same(j.merges, [97, 98, 32, FIRST_MERGE_ID]);
  t.equal(j.vocabSize, FIRST_MERGE_ID + 2);
  t.same(new Tokenizer(j).encode('ab ab ab'), [FIRST_MERGE_ID, FIRST_MERGE_ID + 1, FIRST_MERGE_ID + 1]);
});
