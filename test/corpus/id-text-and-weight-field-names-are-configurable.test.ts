// The id, text and weight fields can have other names; a field called "text" is then plain meta.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

t.test('custom id, text and weight field names', async (t) => {
  const dir = tempDir(t);
  const file = writeJsonl(join(dir, 'pages.jsonl'), [
    { url: 'https://a', body: prose('a', 400), w: 2, text: 'ignored' },
    { url: 'https://b', body: prose('b', 400) },
  ]);
  const corpus = await openCorpus({ paths: [file], idField: 'url', textField: 'body', weightField: 'w' });
  const a = corpus.get('https://a')!;
  t.equal(a.text, prose('a', 400));
  t.equal(a.meta.text, 'ignored', 'a field named "text" is plain meta when textField is another one');
  t.notOk('body' in a.meta);
  t.notOk('url' in a.meta);
});
