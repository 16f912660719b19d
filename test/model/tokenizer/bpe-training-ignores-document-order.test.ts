// BPE training gives the same merges for the same documents, whatever their order, on every run.
import t from 'tap';
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { SAMPLE_DOCS } from './helpers.js';

t.test('same documents, any order: identical merges', async (t) => {
  const a = trainTokenizer(SAMPLE_DOCS, { vocabSize: 500 });
  const b = trainTokenizer(SAMPLE_DOCS, { vocabSize: 500 });
  const c = trainTokenizer([...SAMPLE_DOCS].reverse(), { vocabSize: 500 });
  t.same(a, b, 'repeat run is identical');
  t.same(c.merges, a.merges, 'reversed document order learns the same merges');
  t.ok(a.merges.length / 2 > 50, 'learns merges');
});
