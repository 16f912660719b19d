// A text shorter than chunkChars is one chunk, trimmed; an empty text has none.
import t from 'tap';
import { chunkText } from '../../corpus/index.js';
import { SPEC } from './chunk-cover.js';

t.test('short text is one chunk, trimmed', async (t) => {
  t.same(chunkText('  hello world  ', SPEC), ['hello world']);
  t.same(chunkText('', SPEC), []);
});
