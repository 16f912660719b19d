// JSONL files are read plain or gzipped, directories are walked for *.jsonl(.gz) in name order, extra scalar
// fields survive as meta, and streaming yields what loading holds.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listCorpusFiles, openCorpus, streamChunks } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

t.test('plain, gzip and nested directories', async (t) => {
  const dir = tempDir(t);
  writeJsonl(join(dir, 'b.jsonl'), [{ id: 'b1', text: prose('b1', 300), source: 'x' }, '', { id: 'b2', text: prose('b2', 300) }]);
  writeJsonl(join(dir, 'a.jsonl.gz'), [{ id: 'a1', text: prose('a1', 300), kind: 'k', n: 3, ok: true, nested: { no: 1 } }]);
  writeJsonl(join(dir, 'sub', 'c.jsonl.gz'), [{ id: 'c1', text: prose('c1', 300) }]);
  writeFileSync(join(dir, 'notes.txt'), 'not a corpus file');
  writeJsonl(join(dir, '.hidden.jsonl'), [{ id: 'h', text: prose('h', 300) }]);

  t.same(listCorpusFiles([dir]).map((f) => f.slice(dir.length + 1)), ['a.jsonl.gz', 'b.jsonl', 'sub/c.jsonl.gz']);
  const corpus = await openCorpus({ paths: [dir] });
  t.same([...corpus].map((c) => c.id), ['a1', 'b1', 'b2', 'c1'], 'file order, then line order');
  t.equal(corpus.documentCount, 4);
  t.same(corpus.stats.files, 3);
  t.equal(corpus.stats.lines, 4, 'blank lines are not counted');
  const a1 = corpus.get('a1')!;
  t.same(a1.meta, { kind: 'k', n: 3, ok: true }, 'scalar extra fields kept, nested ones dropped');
  t.equal(a1.line, 1);
  t.ok(a1.file.endsWith('a.jsonl.gz'));
  t.equal(corpus.get('b2')!.line, 3, 'line numbers count blank lines');
  t.equal(corpus.documentText('c1'), prose('c1', 300));

  const streamed = [];
  for await (const c of streamChunks({ paths: [dir] })) streamed.push(c);
  t.same(streamed, [...corpus], 'streamChunks yields the same chunks as the loaded corpus');

  const one = await openCorpus({ paths: [join(dir, 'sub', 'c.jsonl.gz'), join(dir, 'b.jsonl')] });
  t.same([...one].map((c) => c.docId), ['c1', 'b1', 'b2'], 'explicit files keep the given order');
});
