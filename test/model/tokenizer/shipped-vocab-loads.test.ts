// The shipped vocab file loads as the default BPE tokenizer.
import t from 'tap';
import { DEFAULT_TOKENIZER, FIRST_MERGE_ID, loadTokenizer } from '../../../model/tokenizer.js';

t.test('the shipped vocab loads', async (t) => {
  const tok = loadTokenizer();
  t.equal(tok.name, DEFAULT_TOKENIZER);
  t.equal(tok.kind, 'bpe');
  t.ok(tok.vocabSize > FIRST_MERGE_ID);
});
