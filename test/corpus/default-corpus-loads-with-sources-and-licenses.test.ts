// The shipped corpus loads from its default path, mixes at least three sources and the three kinds, states a
// source, license, kind and title on every document, stays under 20 MB, and SOURCES.md names every source.
import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import { defaultCorpusPaths, listCorpusFiles, openCorpus } from '../../corpus/index.js';
import { repoPath } from '../../runtime/paths.js';
import { makeRandom } from '../../sandbox/prng.js';

t.test('the default corpus', async (t) => {
  const files = listCorpusFiles(defaultCorpusPaths());
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
  t.ok(bytes < 20 * 1024 * 1024, `${(bytes / 1e6).toFixed(2)} MB on disk`);
  t.ok(files.every((f) => f.endsWith('.jsonl.gz')), 'shipped gzipped');

  const corpus = await openCorpus();
  t.equal(corpus.stats.skipped, 0);
  t.ok(corpus.documentCount >= 3000, `${corpus.documentCount} documents`);
  const sources = new Map<string, string>();
  const kinds = new Set<string>();
  let missing = 0;
  let conflicts = 0;
  for (const c of corpus) {
    const { source, license, kind, title } = c.meta;
    if (typeof source !== 'string' || typeof license !== 'string' || typeof kind !== 'string' || typeof title !== 'string'
      || !source || !license || !kind) {
      missing++;
      continue;
    }
    if (sources.has(source) && sources.get(source) !== license) conflicts++;
    sources.set(source, license);
    kinds.add(kind);
    if (!c.docId.startsWith(`${source}/`)) missing++;
  }
  t.equal(missing, 0, 'every chunk has source, license, kind and title, and an id prefixed by its source');
  t.equal(conflicts, 0, 'each source has one license');
  t.ok(sources.size >= 3, `${sources.size} sources`);
  t.same([...kinds].sort(), ['encyclopedic', 'howto', 'reference']);

  const doc = readFileSync(repoPath('corpus', 'SOURCES.md'), 'utf8');
  for (const [source, license] of sources) {
    t.match(doc, `\`${source}\``, `SOURCES.md names ${source}`);
    t.match(doc, license, `SOURCES.md states ${license}`);
  }

  const balanced = await openCorpus({ balanceField: 'kind' });
  const random = makeRandom(5);
  const seen = new Map<string, number>();
  for (let i = 0; i < 3000; i++) {
    const k = String(balanced.sample(random).meta.kind);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const [k, n] of seen) t.ok(n > 850 && n < 1150, `balanced by kind: ${k} drawn ${n} of 3000`);
});
