// Documents shorter than minChars are dropped and counted; texts are trimmed.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

t.test('short documents are dropped and counted', async (t) => {
  const dir = tempDir(t);
  const file = writeJsonl(join(dir, 'x.jsonl'), [{ id: 'tiny', text: '  short  ' }, { id: 'long', text: prose('l', 250) }]);
  const corpus = await openCorpus({ paths: [file], minChars: 200 });
  t.equal(corpus.documentCount, 1);
  t.equal(corpus.stats.short, 1);
  t.equal(corpus.get('tiny'), undefined);
  const all = await openCorpus({ paths: [file], minChars: 0 });
  t.equal(all.get('tiny')!.text, 'short', 'texts are trimmed');
});
