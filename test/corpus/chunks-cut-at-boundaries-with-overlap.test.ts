// Long documents are cut at paragraph, then sentence, then word boundaries into chunks of at most chunkChars,
// each overlapping the previous one, covering the whole text, with ids <docId>#<index>.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { chunkSpans, chunkText, openCorpus, type ChunkSpec } from '../../corpus/index.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

const SPEC: ChunkSpec = { chunkChars: 500, chunkOverlap: 80, minChars: 100 };

function checkCover(t: Test, text: string, spec: ChunkSpec): void {
  const spans = chunkSpans(text, spec);
  let covered = 0;
  for (const [i, [s, e]] of spans.entries()) {
    t.ok(e - s <= spec.chunkChars + (i === spans.length - 1 ? spec.minChars : 0), `chunk ${i} length ${e - s}`);
    t.ok(s <= covered || text.slice(covered, s).trim() === '', `chunk ${i} leaves no gap`);
    if (i > 0) t.ok(s < spans[i - 1]![1] || spec.chunkOverlap === 0, `chunk ${i} overlaps the previous one`);
    t.ok(s > (spans[i - 1]?.[0] ?? -1), 'starts move forward');
    covered = Math.max(covered, e);
  }
  t.equal(text.slice(covered).trim(), '', 'the end is covered');
}

t.test('short text is one chunk, trimmed', async (t) => {
  t.same(chunkText('  hello world  ', SPEC), ['hello world']);
  t.same(chunkText('', SPEC), []);
});

t.test('cuts at paragraph breaks when there are some', async (t) => {
  const paras = Array.from({ length: 8 }, (_, i) => prose(`p${i}`, 180));
  const text = paras.join('\n\n');
  const chunks = chunkText(text, SPEC);
  t.ok(chunks.length > 1);
  for (const c of chunks.slice(0, -1)) t.ok(paras.some((p) => c.endsWith(p)), 'each chunk ends with a whole paragraph');
  checkCover(t, text, SPEC);
});

t.test('cuts after sentences inside a long paragraph, overlap starts at a sentence', async (t) => {
  const text = prose('s', 3000);
  const chunks = chunkText(text, SPEC);
  t.ok(chunks.length >= 6);
  for (const c of chunks) {
    t.match(c, /^Sentence \d+ /, 'starts at a sentence');
    t.match(c, /plain\.$/, 'ends at a sentence end');
  }
  for (let i = 1; i < chunks.length; i++) {
    const first = chunks[i]!.slice(0, 30);
    t.ok(chunks[i - 1]!.includes(first), `chunk ${i} repeats the end of chunk ${i - 1}`);
  }
  checkCover(t, text, SPEC);
  checkCover(t, text, { ...SPEC, chunkOverlap: 0 });
});

t.test('falls back to words, then to a hard cut', async (t) => {
  const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
  for (const c of chunkText(words, SPEC)) t.match(c, /^word\d+( word\d+)*$/, 'whole words only');
  checkCover(t, words, SPEC);
  const blob = 'x'.repeat(1234);
  const parts = chunkText(blob, { ...SPEC, chunkOverlap: 0 });
  t.same(parts.map((p) => p.length), [500, 500, 234]);
  checkCover(t, blob, SPEC);
  const emoji = '😀'.repeat(700);
  for (const c of chunkText(emoji, { ...SPEC, chunkOverlap: 0 })) t.notMatch(c, /^[\udc00-\udfff]|[\ud800-\udbff]$/, 'no split surrogate pair');
});

t.test('a tail shorter than minChars joins the previous chunk', async (t) => {
  const text = `${prose('a', 480)}\n\n${prose('tail', 60)}`;
  t.equal(chunkText(text, SPEC).length, 1, 'one chunk of at most chunkChars + minChars');
  t.equal(chunkText(text, { ...SPEC, minChars: 10 }).length, 2);
});

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
