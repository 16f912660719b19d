// Sampling draws documents uniformly, by a weight field, or balanced across a field's values (chi-square at
// p = 0.001), whatever their chunk counts; a seed fixes the sequence; zero weights are never drawn.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { CorpusSampler, openCorpus, type Corpus } from '../../corpus/index.js';
import { makeRandom } from '../../sandbox/prng.js';
import { CHI2_999, chiSquare, prose, tempDir, writeJsonl } from './helpers.js';

const DRAWS = 40_000;

function counts(t: Test, corpus: Corpus, seed: number, key: (c: ReturnType<Corpus['sample']>) => string, keys: string[]): number[] {
  const random = makeRandom(seed);
  const n = new Map(keys.map((k) => [k, 0]));
  for (let i = 0; i < DRAWS; i++) {
    const k = key(corpus.sample(random));
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  t.equal(n.size, keys.length, 'no unexpected key drawn');
  return keys.map((k) => n.get(k)!);
}

t.test('uniform over documents, whatever their length', async (t) => {
  const dir = tempDir(t);
  // Documents of 1, 2, ... 6 chunks: uniform means per document, not per chunk.
  const ids = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
  writeJsonl(join(dir, 'c.jsonl'), ids.map((id, i) => ({ id, text: prose(id, 900 * (i + 1) - 100) })));
  const corpus = await openCorpus({ paths: [dir], chunkChars: 1000, chunkOverlap: 100 });
  t.ok(corpus.size > 12, `documents are split (${corpus.size} chunks)`);
  const obs = counts(t, corpus, 1, (c) => c.docId, ids);
  const chi = chiSquare(obs, ids.map(() => 1 / 6));
  t.ok(chi < CHI2_999[5]!, `chi-square ${chi.toFixed(2)} < ${CHI2_999[5]} (${obs.join(' ')})`);

  const perChunk = new Map<string, number>();
  const random = makeRandom(2);
  for (let i = 0; i < DRAWS; i++) {
    const c = corpus.sample(random);
    if (c.docId === 'd6') perChunk.set(c.id, (perChunk.get(c.id) ?? 0) + 1);
  }
  const d6 = [...perChunk.values()];
  t.ok(chiSquare(d6, d6.map(() => 1 / d6.length)) < CHI2_999[d6.length - 1]!, "a document's chunks are drawn uniformly");
});

t.test('weighted by a field, zero weight never drawn', async (t) => {
  const dir = tempDir(t);
  const weights = { a: 1, b: 2, c: 3, d: 4, z: 0 };
  writeJsonl(join(dir, 'c.jsonl'), Object.entries(weights).map(([id, weight]) => ({ id, text: prose(id, 300), weight })));
  const corpus = await openCorpus({ paths: [dir], weightField: 'weight' });
  const obs = counts(t, corpus, 7, (c) => c.docId, ['a', 'b', 'c', 'd']);
  const chi = chiSquare(obs, [0.1, 0.2, 0.3, 0.4]);
  t.ok(chi < CHI2_999[3]!, `chi-square ${chi.toFixed(2)} < ${CHI2_999[3]} (${obs.join(' ')})`);
  t.ok(chiSquare(obs, [0.25, 0.25, 0.25, 0.25]) > 1000, 'and clearly not uniform');
});

t.test('balanced across the values of a field', async (t) => {
  const dir = tempDir(t);
  const lines = [];
  for (let i = 0; i < 30; i++) lines.push({ id: `big${i}`, text: prose(`big${i}`, 300), kind: 'big' });
  for (let i = 0; i < 3; i++) lines.push({ id: `small${i}`, text: prose(`small${i}`, 300), kind: 'small' });
  lines.push({ id: 'alone', text: prose('alone', 300) });
  writeJsonl(join(dir, 'c.jsonl'), lines);
  const corpus = await openCorpus({ paths: [dir], balanceField: 'kind' });
  const obs = counts(t, corpus, 3, (c) => String(c.meta.kind ?? 'none'), ['big', 'small', 'none']);
  const chi = chiSquare(obs, [1 / 3, 1 / 3, 1 / 3]);
  t.ok(chi < CHI2_999[2]!, `each kind (a missing field is its own group) gets a third: ${obs.join(' ')}`);
});

t.test('a seed fixes the sequence', async (t) => {
  const dir = tempDir(t);
  writeJsonl(join(dir, 'c.jsonl'), Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, text: prose(`d${i}`, 2500) })));
  const corpus = await openCorpus({ paths: [dir] });
  const run = (seed: number): string[] => {
    const random = makeRandom(seed);
    return Array.from({ length: 200 }, () => corpus.sample(random).id);
  };
  t.same(run(42), run(42));
  t.notSame(run(42), run(43));
  const again = await openCorpus({ paths: [dir] });
  const random = makeRandom(42);
  t.same(Array.from({ length: 200 }, () => again.sample(random).id), run(42), 'reopening the corpus changes nothing');
});

t.test('alias sampler matches arbitrary weights', async (t) => {
  const w = [0.5, 0, 3, 1e-3, 7, 2.25, 0, 1, 4, 0.75];
  const sampler = new CorpusSampler(w);
  const random = makeRandom(11);
  const obs = w.map(() => 0);
  for (let i = 0; i < 200_000; i++) obs[sampler.sample(random)]!++;
  t.equal(obs[1], 0);
  t.equal(obs[6], 0);
  const total = w.reduce((a, b) => a + b, 0);
  const keep = w.map((x, i) => [x, i] as const).filter(([x]) => x > 0.01);
  const chi = chiSquare(keep.map(([, i]) => obs[i]!), keep.map(([x]) => x / total));
  t.ok(chi < CHI2_999[keep.length - 1]!, `chi-square ${chi.toFixed(2)} over ${keep.length} categories`);
  t.throws(() => new CorpusSampler([1, -1]), { name: 'OptionsError', code: 'OPTIONS_INVALID', path: 'weights[1]', message: /^weights\[1\]: expected a finite number >= 0, got -1$/ });
  t.throws(() => new CorpusSampler([0, 0]), { code: 'CORPUS_EMPTY' });
});
