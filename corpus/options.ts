// What to read and how to cut it: paths, field names, weighting, chunk sizes and the policy for malformed lines,
// with defaults and validation whose messages name the field.
import { CorpusOptionsError } from './errors.js';
import { defaultCorpusPaths } from './files.js';

export interface CorpusOptions {
  /** JSONL files (.jsonl or .jsonl.gz) and directories (walked for them); default: the shipped corpus. */
  paths?: string[];
  /** Field holding the document id (a non-empty string, unique across the corpus). */
  idField?: string;
  /** Field holding the document text. */
  textField?: string;
  /** Optional numeric field giving a document's sampling weight (missing = 1; must be finite and >= 0). */
  weightField?: string;
  /** Optional field (e.g. "kind" or "source") whose distinct values get equal total sampling mass. */
  balanceField?: string;
  /** Longest chunk in characters (UTF-16 code units); longer documents are split. */
  chunkChars?: number;
  /** Characters a chunk repeats from the end of the previous one, so no sentence is only ever seen cut. */
  chunkOverlap?: number;
  /** Documents shorter than this (after trimming) are dropped and counted; a shorter tail joins the previous chunk. */
  minChars?: number;
  /** Malformed line: 'fail' throws CorpusLineError naming file:line; 'skip' drops it and counts it by reason. */
  onInvalid?: 'fail' | 'skip';
}

export type ResolvedCorpusOptions = Required<Omit<CorpusOptions, 'weightField' | 'balanceField'>>
  & { weightField: string | undefined; balanceField: string | undefined };

export const DEFAULT_CORPUS_OPTIONS: Readonly<Omit<ResolvedCorpusOptions, 'paths'>> = {
  idField: 'id',
  textField: 'text',
  weightField: undefined,
  balanceField: undefined,
  chunkChars: 2000,
  chunkOverlap: 200,
  minChars: 200,
  onInvalid: 'fail',
};

const MAX_CHUNK_CHARS = 10_000_000;

/** Fills defaults and checks every field; throws CorpusOptionsError naming the first bad one. */
export function validateCorpusOptions(opts: CorpusOptions = {}): ResolvedCorpusOptions {
  const o: ResolvedCorpusOptions = { ...DEFAULT_CORPUS_OPTIONS, paths: [] };
  for (const [k, v] of Object.entries(opts)) if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  if (opts.paths === undefined) o.paths = defaultCorpusPaths();
  if (!Array.isArray(o.paths) || o.paths.length === 0) throw new CorpusOptionsError('paths', 'a non-empty array of paths', o.paths);
  o.paths.forEach((p, i) => {
    if (typeof p !== 'string' || p.length === 0) throw new CorpusOptionsError(`paths[${i}]`, 'a non-empty string', p);
  });
  for (const f of ['idField', 'textField'] as const) fieldName(f, o[f]);
  for (const f of ['weightField', 'balanceField'] as const) if (o[f] !== undefined) fieldName(f, o[f]);
  if (o.idField === o.textField) throw new CorpusOptionsError('textField', `a field other than idField "${o.idField}"`, o.textField);
  int('chunkChars', o.chunkChars, 16, MAX_CHUNK_CHARS);
  int('chunkOverlap', o.chunkOverlap, 0, Math.floor(o.chunkChars / 2));
  int('minChars', o.minChars, 0, o.chunkChars);
  if (o.onInvalid !== 'fail' && o.onInvalid !== 'skip') throw new CorpusOptionsError('onInvalid', '"fail" or "skip"', o.onInvalid);
  return o;
}

function fieldName(field: string, v: unknown): void {
  if (typeof v !== 'string' || v.length === 0) throw new CorpusOptionsError(field, 'a non-empty string', v);
}

function int(field: string, v: unknown, min: number, max: number): void {
  if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) {
    throw new CorpusOptionsError(field, `an integer in ${min}..${max}`, v);
  }
}
