// A seed fixes the sequence of sampled chunks, also across reopening the corpus; another seed changes it.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { makeRandom } from '../../sandbox/prng.js';
import { prose, tempDir, writeJsonl } from './helpers.js';

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
