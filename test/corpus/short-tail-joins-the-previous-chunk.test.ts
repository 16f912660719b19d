// A last piece shorter than minChars is joined to the chunk before it rather than left as its own chunk.
import t from 'tap';
import { chunkText } from '../../corpus/index.js';
import { prose } from './helpers.js';
import { SPEC } from './chunk-cover.js';

t.test('a tail shorter than minChars joins the previous chunk', async (t) => {
  const text = `${prose('a', 480)}\n\n${prose('tail', 60)}`;
  t.equal(chunkText(text, SPEC).length, 1, 'one chunk of at most chunkChars + minChars');
  t.equal(chunkText(text, { ...SPEC, minChars: 10 }).length, 2);
});
