// Splits text into pre-tokens (words, single digits, punctuation runs, whitespace) over its UTF-8
// bytes, so BPE merges never cross a word boundary and any byte string, valid UTF-8 or not, encodes.

/** Name recorded in vocab files: a vocab trained with one pre-tokenizer is wrong under another. */
export const PRETOKENIZER_NAME = 'spade-bytes-v1';

/** Longer pre-tokens are cut into chunks of this many bytes, in training and encoding alike: keeps the
 * per-pre-token merge loop (quadratic in length) cheap on long runs such as "=====" rules or base64. */
export const MAX_PRETOKEN_BYTES = 64;

// The regex runs over a latin1 view of the UTF-8 bytes (one char per byte). Bytes >= 0x80 are the
// pieces of non-ASCII characters and count as letters, so "héllo" stays one word. Whitespace is the
// ASCII set only: \s would also match 0x85 and 0xA0, which here are UTF-8 continuation bytes.
// Alternatives, GPT-2 style: an optional space + letters; an optional space + ONE digit (numbers
// split per digit, which keeps arithmetic regular); an optional space + a punctuation run;
// whitespace not followed by a non-space (so "\n    x" gives "\n   " and " x"); remaining whitespace.
const PATTERN = / ?[A-Za-z\x80-\xff]+| ?[0-9]| ?[^ \t\n\r\f\vA-Za-z0-9\x80-\xff]+|[ \t\n\r\f\v]+(?![^ \t\n\r\f\v])|[ \t\n\r\f\v]+/g;

/** The latin1 view of a string's UTF-8 bytes: char i is byte i. */
export function utf8Latin1(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The latin1 view of raw bytes. */
export function bytesLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * Calls `each` for every pre-token of a latin1 byte view, in order. The pre-tokens concatenate back
 * to the input exactly (the pattern's last alternatives match any whitespace, the others any
 * non-whitespace byte), which is what makes encoding lossless.
 */
export function forEachPretoken(latin1: string, each: (piece: string) => void): void {
  PATTERN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PATTERN.exec(latin1)) !== null) {
    const piece = m[0];
    if (piece.length <= MAX_PRETOKEN_BYTES) {
      each(piece);
    } else {
      for (let i = 0; i < piece.length; i += MAX_PRETOKEN_BYTES) each(piece.slice(i, i + MAX_PRETOKEN_BYTES));
    }
  }
}
