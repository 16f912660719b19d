// A BPE encodes text like its training text in at least 40% fewer tokens than bytes.
import t from 'tap';
import { SAMPLE_DOCS } from './helpers.js';
import { sampleBpe } from './tokenizers.js';

t.test('BPE encodes shorter than bytes on text like its training text', async (t) => {
  const bpe = sampleBpe();
  const text = SAMPLE_DOCS.join('');
  t.ok(bpe.encode(text).length < Buffer.byteLength(text) * 0.6, 'at least 40% fewer tokens than bytes');
});
