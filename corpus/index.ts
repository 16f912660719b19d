// Public entry of the corpus: open (load, chunk, index, sample) or stream JSONL documents, the shipped default
// corpus, options and typed errors.
export { openCorpus, streamChunks, Corpus, type CorpusChunk, type CorpusStats } from './corpus.js';
export { readDocuments, parseLine, emptyReadStats, type CorpusDocument, type CorpusMeta, type ReadStats } from './reader.js';
export { chunkSpans, chunkText, chunkId, type ChunkSpec, type Span } from './chunk.js';
export { CorpusSampler, type Random } from './sampler.js';
export { defaultCorpusPaths, listCorpusFiles, readLines } from './files.js';
export { DEFAULT_CORPUS_OPTIONS, validateCorpusOptions, type CorpusOptions, type ResolvedCorpusOptions } from './options.js';
export * from './errors.js';
