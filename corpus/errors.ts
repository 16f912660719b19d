// Typed errors of the corpus: unreadable paths, malformed JSONL lines (naming file:line and what was wrong) and
// corpora that end up empty, each with an isX() helper. A bad option is an OptionsError (runtime/options.ts).
import { coded, guard, SpadeError } from '../runtime/spade-error.js';

/** Root of every error the corpus throws. */
export class CorpusError extends SpadeError {}

/** A path does not exist, cannot be read, or a .gz file is not valid gzip. */
export class CorpusFileError extends CorpusError {
  readonly file: string;
  constructor(file: string, what: string, cause?: unknown) {
    super(`${file}: ${what}`, { code: 'CORPUS_FILE', data: { file }, cause });
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
    super(`${file}:${line}: ${detail}`, { code: 'CORPUS_LINE', data: { file, line, reason }, cause });
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/** The paths held no usable document (after skipping malformed and short ones), or no document has positive weight. */
export class CorpusEmptyError extends coded(CorpusError, 'CORPUS_EMPTY') {}

export const isCorpusError = guard(CorpusError);
export const isCorpusFileError = guard(CorpusFileError);
export const isCorpusLineError = guard(CorpusLineError);
export const isCorpusEmptyError = guard(CorpusEmptyError);
