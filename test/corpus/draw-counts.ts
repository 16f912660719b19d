// Shared by the sampling tests: draws DRAWS chunks from a corpus with a seeded random and counts them by a key.
import type { Test } from 'tap';
import type { Corpus } from '../../corpus/index.js';
import { makeRandom } from '../../sandbox/prng.js';

export const DRAWS = 40_000;

export function counts(t: Test, corpus: Corpus, seed: number, key: (c: ReturnType<Corpus['sample']>) => string, keys: string[]): number[] {
  const random = makeRandom(seed);
  const n = new Map(keys.map((k) => [k, 0]));
  for (let i = 0; i < DRAWS; i++) {
    const k = key(corpus.sample(random));
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  t.equal(n.size, keys.length, 'no unexpected key drawn');
  return keys.map((k) => n.get(k)!);
}
