// Streams documents out of JSONL files: one JSON object per line with an id and a text field (names configurable).
// Malformed lines either throw CorpusLineError (file:line and what was wrong) or are skipped and counted.
import { CorpusLineError, type CorpusLineReason } from './errors.js';
import { listCorpusFiles, readLines } from './files.js';
import type { ResolvedCorpusOptions } from './options.js';

/** Scalar fields of a line other than id and text (source, license, kind, title...). */
export type CorpusMeta = Record<string, string | number | boolean | null>;

/** One document as read from a line. */
export interface CorpusDocument {
  id: string;
  text: string;
  /** Sampling weight from weightField (1 when there is no weightField or the line lacks it). */
  weight: number;
  meta: CorpusMeta;
  file: string;
  /** 1-based line number in `file`. */
  line: number;
}

/** What a read saw, filled in as it goes. */
export interface ReadStats {
  files: number;
  lines: number;
  documents: number;
  /** Documents dropped for being shorter than minChars. */
  short: number;
  /** Skipped malformed lines (only with onInvalid 'skip'), total and by reason. */
  skipped: number;
  skippedByReason: Partial<Record<CorpusLineReason, number>>;
  /** The first few skipped lines' errors, so a skip-mode run still shows what was wrong. */
  examples: CorpusLineError[];
}

const MAX_EXAMPLES = 10;

export function emptyReadStats(): ReadStats {
  return { files: 0, lines: 0, documents: 0, short: 0, skipped: 0, skippedByReason: {}, examples: [] };
}

export type ReadDocumentsOptions = Pick<ResolvedCorpusOptions,
  'paths' | 'idField' | 'textField' | 'weightField' | 'minChars' | 'onInvalid'>;

/**
 * Yields every usable document of the given paths in file order, then line order. Blank lines are ignored;
 * texts are trimmed; ids must be unique across all files (a repeat is a 'duplicate-id' line error).
 */
export async function* readDocuments(o: ReadDocumentsOptions, stats: ReadStats = emptyReadStats()): AsyncGenerator<CorpusDocument> {
  const ids = new Set<string>();
  for (const file of listCorpusFiles(o.paths)) {
    stats.files++;
    let line = 0;
    for await (const raw of readLines(file)) {
      line++;
      if (raw.trim() === '') continue;
      stats.lines++;
      const parsed = parseLine(raw, file, line, o);
      if (parsed instanceof CorpusLineError || ids.has(parsed.id)) {
        const err = parsed instanceof CorpusLineError ? parsed
          : new CorpusLineError(file, line, 'duplicate-id', `id ${JSON.stringify(parsed.id)} was already used`);
        if (o.onInvalid === 'fail') throw err;
        stats.skipped++;
        stats.skippedByReason[err.reason] = (stats.skippedByReason[err.reason] ?? 0) + 1;
        if (stats.examples.length < MAX_EXAMPLES) stats.examples.push(err);
        continue;
      }
      ids.add(parsed.id);
      if (parsed.text.length < o.minChars || parsed.text.length === 0) {
        stats.short++;
        continue;
      }
      stats.documents++;
      yield parsed;
    }
  }
}

/** Parses one non-blank line; returns the error instead of throwing so the caller applies the skip policy. */
export function parseLine(raw: string, file: string, line: number, o: Pick<ReadDocumentsOptions, 'idField' | 'textField' | 'weightField'>): CorpusDocument | CorpusLineError {
  const bad = (reason: CorpusLineReason, detail: string, cause?: unknown): CorpusLineError =>
    new CorpusLineError(file, line, reason, detail, cause);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return bad('bad-json', `not valid JSON (${(err as Error).message})`, err);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('not-object', 'a line must be one JSON object');
  const rec = value as Record<string, unknown>;
  const id = rec[o.idField];
  if (id === undefined) return bad('missing-id', `missing field "${o.idField}"`);
  if (typeof id !== 'string' || id.length === 0) return bad('bad-id', `field "${o.idField}" must be a non-empty string (got ${typeof id})`);
  const text = rec[o.textField];
  if (text === undefined) return bad('missing-text', `missing field "${o.textField}"`);
  if (typeof text !== 'string') return bad('bad-text', `field "${o.textField}" must be a string (got ${typeof text})`);
  let weight = 1;
  if (o.weightField !== undefined && rec[o.weightField] !== undefined) {
    const w = rec[o.weightField];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
      return bad('bad-weight', `field "${o.weightField}" must be a finite number >= 0 (got ${JSON.stringify(w)})`);
    }
    weight = w;
  }
  const meta: CorpusMeta = {};
  for (const [k, v] of Object.entries(rec)) {
    if (k === o.idField || k === o.textField) continue;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') meta[k] = v;
  }
  return { id, text: text.trim(), weight, meta, file, line };
}
