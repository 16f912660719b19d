// A corpus gives split documents the chunk ids <docId>#<index> with their count, keeps an unsplit
// document's id, and looks chunks up by id and by index.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';
import { SPEC } from './chunk-cover.js';

t.test('corpus chunk ids, counts and lookup', async (t) => {
  const dir = tempDir(t);
  writeJsonl(join(dir, 'c.jsonl'), [{ id: 'long', text: prose('L', 1800) }, { id: 'short', text: prose('S', 300) }]);
  const corpus = await openCorpus({ paths: [dir], ...SPEC });
  const long = [...corpus].filter((c) => c.docId === 'long');
  t.ok(long.length >= 3);
  t.same(long.map((c) => c.id), long.map((_, i) => `long#${i}`));
  t.ok(long.every((c) => c.count === long.length));
  t.equal(corpus.get('short')!.id, 'short', 'an unsplit document keeps its id');
  t.equal(corpus.get('long#1')!.text, long[1]!.text);
  t.equal(corpus.get('long#99'), undefined);
  t.equal(corpus.documentText('long'), prose('L', 1800));
  t.equal(corpus.stats.chunks, corpus.size);
  t.throws(() => corpus.chunk(corpus.size), { code: 'CORPUS_RANGE' });
  t.throws(() => corpus.chunk(-1), { code: 'CORPUS_RANGE' });
});
