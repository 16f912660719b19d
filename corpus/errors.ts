// Typed errors of the corpus: bad options, unreadable paths, malformed JSONL lines (naming file:line and what
// was wrong) and corpora that end up empty. Each has an isX() helper.
import { SpadeError } from '../runtime/spade-error.js';

/** Root of every error the corpus throws. */
export class CorpusError extends SpadeError {
  constructor(message: string, code: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code, data, cause });
  }
}

/** A CorpusOptions field is invalid; `field` names it. */
export class CorpusOptionsError extends CorpusError {
  readonly field: string;
  constructor(field: string, expected: string, actual: unknown) {
    super(`options.${field} must be ${expected} (got ${describe(actual)})`, 'CORPUS_OPTIONS', { field, expected });
    this.field = field;
  }
}

/** A path does not exist, cannot be read, or a .gz file is not valid gzip. */
export class CorpusFileError extends CorpusError {
  readonly file: string;
  constructor(file: string, what: string, cause?: unknown) {
    super(`${file}: ${what}`, 'CORPUS_FILE', { file }, cause);
    this.file = file;
  }
}

/** Why one JSONL line was refused. */
export type CorpusLineReason = 'bad-json' | 'not-object' | 'missing-id' | 'bad-id' | 'missing-text' | 'bad-text'
  | 'bad-weight' | 'duplicate-id';

/** One line of a JSONL file is malformed; carries the file, the 1-based line number and the reason. */
export class CorpusLineError extends CorpusError {
  readonly file: string;
  readonly line: number;
  readonly reason: CorpusLineReason;
  constructor(file: string, line: number, reason: CorpusLineReason, detail: string, cause?: unknown) {
    super(`${file}:${line}: ${detail}`, 'CORPUS_LINE', { file, line, reason }, cause);
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/** The paths held no usable document (after skipping malformed and short ones), or no document has positive weight. */
export class CorpusEmptyError extends CorpusError {
  constructor(what: string) {
    super(what, 'CORPUS_EMPTY');
  }
}

export const isCorpusError = (e: unknown): e is CorpusError => e instanceof CorpusError;
export const isCorpusOptionsError = (e: unknown): e is CorpusOptionsError => e instanceof CorpusOptionsError;
export const isCorpusFileError = (e: unknown): e is CorpusFileError => e instanceof CorpusFileError;
export const isCorpusLineError = (e: unknown): e is CorpusLineError => e instanceof CorpusLineError;
export const isCorpusEmptyError = (e: unknown): e is CorpusEmptyError => e instanceof CorpusEmptyError;

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (v === null || typeof v !== 'object') return String(v);
  return 'object';
}
