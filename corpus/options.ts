// What to read and how to cut it: paths, field names, weighting, chunk sizes and the policy for malformed lines,
// with defaults and validation whose messages name the field.
import { OptionsError, resolveOptions } from '../runtime/options.js';
import * as s from '../runtime/schema.js';
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

const fieldName = s.string({ min: 1 });

/** The resolved form of CorpusOptions; unknown keys are rejected. */
// `as`: the resolved type spells optional fields `x: T | undefined`; the schema infers `x?: T`.
export const CORPUS_OPTIONS_SCHEMA = s.object(
  {
    paths: s.array(s.string({ min: 1 }), { min: 1 }),
    idField: fieldName,
    textField: fieldName,
    weightField: s.optional(fieldName),
    balanceField: s.optional(fieldName),
    chunkChars: s.int({ min: 16, max: MAX_CHUNK_CHARS }),
    chunkOverlap: s.int({ min: 0, max: MAX_CHUNK_CHARS }),
    minChars: s.int({ min: 0, max: MAX_CHUNK_CHARS }),
    onInvalid: s.literal('fail', 'skip'),
  },
  { strict: true },
) as s.Check<ResolvedCorpusOptions>;

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`. */
export function validateCorpusOptions(opts: CorpusOptions = {}, path = 'options'): ResolvedCorpusOptions {
  const defaults: ResolvedCorpusOptions = { ...DEFAULT_CORPUS_OPTIONS, paths: opts.paths === undefined ? defaultCorpusPaths() : [] };
  const o = resolveOptions(CORPUS_OPTIONS_SCHEMA, defaults, opts, path);
  if (o.idField === o.textField) throw new OptionsError(`${path}.textField`, `a field other than idField "${o.idField}"`, o.textField);
  if (o.chunkOverlap > Math.floor(o.chunkChars / 2))
    throw new OptionsError(`${path}.chunkOverlap`, `an integer in 0..${Math.floor(o.chunkChars / 2)} (half of chunkChars)`, o.chunkOverlap);
  if (o.minChars > o.chunkChars) throw new OptionsError(`${path}.minChars`, `an integer in 0..${o.chunkChars} (chunkChars)`, o.minChars);
  return o;
}
