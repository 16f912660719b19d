// The byte-level vocab is the 256 bytes plus the special tokens, and merges start right after them.
import t from 'tap';
import { byteTokenizer, FIRST_MERGE_ID, SPECIAL_TOKENS } from '../../../model/tokenizer.js';

t.test('byte-level vocab is bytes plus specials', async (t) => {
  t.equal(byteTokenizer().vocabSize, FIRST_MERGE_ID);
  t.equal(FIRST_MERGE_ID, 256 + SPECIAL_TOKENS.length);
});
