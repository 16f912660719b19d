// Cuts long texts into overlapping chunks of at most chunkChars, preferring paragraph, then sentence, then line,
// then word boundaries, so the designer is grounded on pieces that read as whole passages.

export interface ChunkSpec {
  chunkChars: number;
  chunkOverlap: number;
  minChars: number;
}

/** [start, end) of one chunk in the source text. */
export type Span = readonly [number, number];

const SENTENCE_END = /[.!?][)"'\]]*\s+/g;

/**
 * Spans of the chunks of `text`. A text of at most chunkChars is one span. Otherwise each cut lies in the second
 * half of the window; the next chunk starts up to chunkOverlap characters before the cut, at a sentence or word
 * start. A remainder shorter than minChars is joined to the chunk before it, so a chunk may reach
 * chunkChars + minChars. Spans never start or end on whitespace.
 */
export function chunkSpans(text: string, spec: ChunkSpec): Span[] {
  const len = text.length;
  const spans: Span[] = [];
  let start = skipSpace(text, 0, len);
  while (start < len) {
    if (len - start <= spec.chunkChars) {
      spans.push(trimmed(text, start, len));
      break;
    }
    const lo = start + Math.floor(spec.chunkChars / 2) + 1;
    const end = cutPoint(text, lo, start + spec.chunkChars);
    if (len - end < spec.minChars || skipSpace(text, end, len) === len) {
      spans.push(trimmed(text, start, len));
      break;
    }
    spans.push(trimmed(text, start, end));
    start = spec.chunkOverlap === 0 ? skipSpace(text, end, len) : overlapStart(text, end - spec.chunkOverlap, end);
  }
  return spans;
}

/** The chunk texts of `text` (see chunkSpans). */
export function chunkText(text: string, spec: ChunkSpec): string[] {
  return chunkSpans(text, spec).map(([s, e]) => text.slice(s, e));
}

/** Id of chunk `index` of `count` of a document: the document id itself when it is not split. */
export function chunkId(docId: string, index: number, count: number): string {
  return count === 1 ? docId : `${docId}#${index}`;
}

// Best cut in [lo, hi]: after the last paragraph break, else sentence end, else line break, else space, else hi.
function cutPoint(text: string, lo: number, hi: number): number {
  const para = text.lastIndexOf('\n\n', hi - 2);
  if (para >= lo) return para;
  const window = text.slice(lo, hi + 1);
  let sentence = -1;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(window); m; m = SENTENCE_END.exec(window)) {
    const afterMark = lo + m.index + m[0].trimEnd().length;
    if (afterMark <= hi) sentence = afterMark;
  }
  if (sentence >= lo) return sentence;
  const nl = text.lastIndexOf('\n', hi - 1);
  if (nl >= lo) return nl;
  const sp = text.lastIndexOf(' ', hi - 1);
  if (sp >= lo) return sp;
  const code = text.charCodeAt(hi);
  return code >= 0xdc00 && code <= 0xdfff ? hi - 1 : hi; // never split a surrogate pair
}

// Start of the next chunk within [from, end): the first sentence start, else the first word start, else `from`.
function overlapStart(text: string, from: number, end: number): number {
  const window = text.slice(from, end);
  SENTENCE_END.lastIndex = 0;
  const m = SENTENCE_END.exec(window);
  if (m) return from + m.index + m[0].length;
  const ws = window.search(/\s\S/);
  if (ws >= 0) return from + ws + 1;
  return from;
}

function skipSpace(text: string, i: number, len: number): number {
  while (i < len && /\s/.test(text[i]!)) i++;
  return i;
}

function trimmed(text: string, s: number, e: number): Span {
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return [s, e];
}
