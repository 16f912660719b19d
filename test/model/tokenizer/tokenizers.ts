// The tokenizers the round-trip tests run over: the byte-level one, a freshly trained BPE and the shipped vocab.
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { byteTokenizer, loadTokenizer, Tokenizer } from '../../../model/tokenizer.js';
import { SAMPLE_DOCS } from './helpers.js';

/** A BPE trained on SAMPLE_DOCS with a 400-token vocab. */
export function sampleBpe(): Tokenizer {
  return new Tokenizer(trainTokenizer(SAMPLE_DOCS, { vocabSize: 400 }));
}

export function everyTokenizer(): Tokenizer[] {
  return [byteTokenizer(), sampleBpe(), loadTokenizer()];
}
