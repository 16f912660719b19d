// Any byte string, valid UTF-8 or not, encodes and decodes back exactly with the byte-level tokenizer, a freshly
// trained BPE and the shipped vocab.
import t from 'tap';
import { mulberry32 } from './helpers.js';
import { everyTokenizer } from './tokenizers.js';

const rnd = mulberry32(7);

for (const tok of everyTokenizer()) {
  t.test(`${tok.name}: arbitrary bytes round-trip`, async (t) => {
    let failures = 0;
    for (let i = 0; i < 200; i++) {
      const bytes = new Uint8Array(Math.floor(rnd() * 80));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(rnd() * 256);
      const back = tok.decodeBytes(tok.encodeBytes(bytes));
      if (Buffer.compare(Buffer.from(back), Buffer.from(bytes)) !== 0) failures++;
    }
    t.equal(failures, 0, '200 random byte strings round-trip');
  });
}
