// The loaded corpus: every usable document's text held once, chunks as spans into it, and an alias-table
// sampler over chunks so that documents are drawn uniformly, by weight, or balanced across a field's values.
import { chunkId, chunkSpans } from './chunk.js';
import { CorpusEmptyError, CorpusError } from './errors.js';
import { validateCorpusOptions, type CorpusOptions, type ResolvedCorpusOptions } from './options.js';
import { emptyReadStats, readDocuments, type CorpusMeta, type ReadStats } from './reader.js';
import { CorpusSampler, type Random } from './sampler.js';

/** One piece of a document, the unit the designer is grounded on. */
export interface CorpusChunk {
  /** `<docId>#<index>` for a split document, the document id otherwise. */
  id: string;
  docId: string;
  /** 0-based position among the document's chunks, and how many there are. */
  index: number;
  count: number;
  text: string;
  meta: CorpusMeta;
  file: string;
  line: number;
}

export interface CorpusStats extends ReadStats {
  chunks: number;
  /** Characters of all kept documents (before overlap). */
  chars: number;
}

interface Doc {
  id: string;
  text: string;
  meta: CorpusMeta;
  file: string;
  line: number;
  firstChunk: number;
  chunkCount: number;
}

/** Reads, chunks and indexes the corpus; throws CorpusEmptyError when nothing usable is left. */
export async function openCorpus(options: CorpusOptions = {}): Promise<Corpus> {
  const o = validateCorpusOptions(options);
  const stats: CorpusStats = { ...emptyReadStats(), chunks: 0, chars: 0 };
  const docs: Doc[] = [];
  const docWeight: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const owner: number[] = [];
  for await (const d of readDocuments(o, stats)) {
    const spans = chunkSpans(d.text, o);
    docs.push({ id: d.id, text: d.text, meta: d.meta, file: d.file, line: d.line, firstChunk: starts.length, chunkCount: spans.length });
    docWeight.push(d.weight);
    for (const [s, e] of spans) (starts.push(s), ends.push(e), owner.push(docs.length - 1));
    stats.chars += d.text.length;
  }
  stats.chunks = starts.length;
  if (docs.length === 0) throw new CorpusEmptyError(`no usable document in ${o.paths.join(', ')} (${describeStats(stats)})`);
  return new Corpus(o, stats, docs, chunkWeights(docs, docWeight, o.balanceField), starts, ends, owner);
}

// A document's mass is split evenly over its chunks, so sampling is per document whatever its length.
function chunkWeights(docs: Doc[], docWeight: number[], balanceField: string | undefined): Float64Array {
  const groupMass = new Map<unknown, number>();
  if (balanceField !== undefined) {
    docs.forEach((d, i) => groupMass.set(d.meta[balanceField], (groupMass.get(d.meta[balanceField]) ?? 0) + docWeight[i]!));
  }
  const n = docs.reduce((a, d) => a + d.chunkCount, 0);
  const w = new Float64Array(n);
  docs.forEach((d, i) => {
    const mass = balanceField === undefined ? 1 : groupMass.get(d.meta[balanceField])!;
    const each = mass > 0 ? docWeight[i]! / mass / d.chunkCount : 0;
    for (let c = 0; c < d.chunkCount; c++) w[d.firstChunk + c] = each;
  });
  return w;
}

function describeStats(s: ReadStats): string {
  return `${s.files} files, ${s.lines} lines, ${s.short} too short, ${s.skipped} skipped`;
}

export class Corpus {
  readonly options: ResolvedCorpusOptions;
  readonly stats: CorpusStats;
  private readonly docs: Doc[];
  private readonly sampler: CorpusSampler;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private readonly owner: Uint32Array;
  private byId: Map<string, number> | undefined;

  constructor(o: ResolvedCorpusOptions, stats: CorpusStats, docs: Doc[], weights: Float64Array,
    starts: number[], ends: number[], owner: number[]) {
    this.options = o;
    this.stats = stats;
    this.docs = docs;
    this.sampler = new CorpusSampler(weights);
    this.starts = Uint32Array.from(starts);
    this.ends = Uint32Array.from(ends);
    this.owner = Uint32Array.from(owner);
  }

  /** Number of chunks. */
  get size(): number {
    return this.starts.length;
  }

  get documentCount(): number {
    return this.docs.length;
  }

  /** Chunk `i` in corpus order (file, line, chunk index). */
  chunk(i: number): CorpusChunk {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) {
      throw new CorpusError(`chunk index ${i} is outside 0..${this.size - 1}`, { code: 'CORPUS_RANGE', data: { index: i } });
    }
    const d = this.docs[this.owner[i]!]!;
    const index = i - d.firstChunk;
    return {
      id: chunkId(d.id, index, d.chunkCount), docId: d.id, index, count: d.chunkCount,
      text: d.text.slice(this.starts[i]!, this.ends[i]!), meta: d.meta, file: d.file, line: d.line,
    };
  }

  /** Chunk by its id (as in CorpusChunk.id), or undefined. */
  get(id: string): CorpusChunk | undefined {
    const i = this.chunkIndexOf(id);
    return i === undefined ? undefined : this.chunk(i);
  }

  /** Full text of a document by id, or undefined. */
  documentText(docId: string): string | undefined {
    const i = this.chunkIndexOf(docId) ?? this.chunkIndexOf(`${docId}#0`);
    const d = i === undefined ? undefined : this.docs[this.owner[i]!]!;
    return d?.id === docId ? d.text : undefined;
  }

  /** Draws a document (uniformly, by weight or balanced, per the options), then one of its chunks uniformly. */
  sample(random: Random): CorpusChunk {
    return this.chunk(this.sampler.sample(random));
  }

  *[Symbol.iterator](): IterableIterator<CorpusChunk> {
    for (let i = 0; i < this.size; i++) yield this.chunk(i);
  }

  private chunkIndexOf(id: string): number | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (const d of this.docs) for (let c = 0; c < d.chunkCount; c++) this.byId.set(chunkId(d.id, c, d.chunkCount), d.firstChunk + c);
    }
    return this.byId.get(id);
  }
}

/** Streams chunks straight from the files without loading the corpus (for corpora too large to hold). */
export async function* streamChunks(options: CorpusOptions = {}, stats?: ReadStats): AsyncGenerator<CorpusChunk> {
  const o = validateCorpusOptions(options);
  for await (const d of readDocuments(o, stats)) {
    const spans = chunkSpans(d.text, o);
    for (let i = 0; i < spans.length; i++) {
      const [s, e] = spans[i]!;
      yield { id: chunkId(d.id, i, spans.length), docId: d.id, index: i, count: spans.length, text: d.text.slice(s, e), meta: d.meta, file: d.file, line: d.line };
    }
  }
}
