// With onInvalid 'skip', lines dropped for several reasons across plain and gzipped files are counted by reason,
// with an example that names the file.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

const GOOD = (id: string): object => ({ id, text: prose(id, 250) });

t.test('skip counts several reasons across files', async (t) => {
  const dir = tempDir(t);
  writeJsonl(join(dir, 'a.jsonl'), ['nope', GOOD('a'), '{}', 'null']);
  writeJsonl(join(dir, 'b.jsonl.gz'), [GOOD('a'), GOOD('b'), '"str"']);
  const corpus = await openCorpus({ paths: [dir], onInvalid: 'skip' });
  t.same([...corpus].map((c) => c.id), ['a', 'b']);
  t.same(corpus.stats.skippedByReason, { 'bad-json': 1, 'missing-id': 1, 'not-object': 2, 'duplicate-id': 1 });
  t.equal(corpus.stats.skipped, 5);
  t.equal(corpus.stats.examples.find((e) => e.reason === 'duplicate-id')?.file, join(dir, 'b.jsonl.gz'));
});
