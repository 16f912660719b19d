// Novelty of an environment module's code, pure: is it a library module with only whitespace or comments changed
// (same normalised hash), and how much of its token-trigram set it shares (Jaccard) with the nearest library module
// and the nearest earlier accepted environment. `novel` = not a copy and both similarities below the threshold.
//
// Normalising: the code is cut into JS tokens (identifiers, numbers, strings, punctuation) with comments and
// whitespace dropped; the hash is over the tokens joined by one space. Trigrams are over the same tokens, so a
// renamed constant or a changed range moves only the few trigrams around it. The threshold 0.8 sits well above what
// two different library modules share (their common boilerplate: spec, reset, step, kit calls) and below what an
// edit of one or two constants leaves.
//
// Structure is the same measure over the tokens with every string literal and number masked: it tells an environment
// with new rules apart from one with new content (a rewritten word list, reworded text, changed constants), which the
// first measure counts as novel when enough literals change. Distinct library modules share at most 0.60 of their
// masked trigrams (higher-lower and window-search, the same bisection), median 0.17; a knob-and-wording edit of a
// module shares nearly all of them. Both figures are reported; `novel` keeps the first (the copy test of the reward).
import { createHash } from 'node:crypto';

export const DEFAULT_NOVELTY_THRESHOLD = 0.8;

/** JS tokens of the code, comments and whitespace dropped (a lexer good enough for similarity, not a parser). */
export function codeTokens(code: string): string[] {
  const out: string[] = [];
  const n = code.length;
  let i = 0;
  while (i < n) {
    const c = code[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && code[i + 1] === '/') { while (i < n && code[i] !== '\n') i++; continue; }
    if (c === '/' && code[i + 1] === '*') { const end = code.indexOf('*/', i + 2); i = end < 0 ? n : end + 2; continue; }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < n && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      out.push(code.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*|^\d[\w.]*/.exec(code.slice(i, i + 256));
    if (word) { out.push(word[0]); i += word[0].length; continue; }
    const punct = /^(===|!==|\*\*=|>>>|\.\.\.|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\+\+|--|[+\-*/%&|^]=|<<|>>)/.exec(code.slice(i, i + 4));
    const t = punct ? punct[0] : c;
    out.push(t);
    i += t.length;
  }
  return out;
}

/** The tokens with string literals and numbers masked: what is left is the module's structure. */
export function structureTokens(tokens: readonly string[]): string[] {
  return tokens.map((t) => (/^["'`]/.test(t) ? '""' : /^\d/.test(t) ? '0' : t));
}

export function normalisedHash(code: string): string {
  return createHash('sha256').update(codeTokens(code).join(' '), 'utf8').digest('hex');
}

export function trigrams(tokens: readonly string[]): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + 2 < tokens.length; i++) s.add(`${tokens[i]}\u0000${tokens[i + 1]}\u0000${tokens[i + 2]}`);
  return s;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const x of small) if (large.has(x)) common++;
  return common / (a.size + b.size - common);
}

export interface NoveltyReport {
  /** The normalised hash is a library module's: that module's name; else null. */
  libraryCopyOf: string | null;
  maxLibrarySimilarity: number;
  nearestLibrary: string | null;
  maxAcceptedSimilarity: number;
  nearestAccepted: string | null;
  novel: boolean;
  /** The same similarities over structure tokens (strings and numbers masked). */
  maxLibraryStructure: number;
  maxAcceptedStructure: number;
  /** Not a copy and both structure similarities below the threshold: new rules, not only new content. */
  newStructure: boolean;
}

interface Indexed {
  name: string;
  hash: string;
  grams: Set<string>;
  shape: Set<string>;
}

const index = (name: string, code: string): Indexed => {
  const tokens = codeTokens(code);
  return { name, hash: createHash('sha256').update(tokens.join(' '), 'utf8').digest('hex'), grams: trigrams(tokens), shape: trigrams(structureTokens(tokens)) };
};

function nearest(grams: Set<string>, pool: readonly Indexed[], of: 'grams' | 'shape' = 'grams'): { sim: number; name: string | null } {
  let best = { sim: 0, name: null as string | null };
  for (const p of pool) {
    const s = jaccard(grams, p[of]);
    if (s > best.sim) best = { sim: s, name: p.name };
  }
  return best;
}

/**
 * The library and the environments accepted so far, for a coordinator to call once per accepted environment:
 * `accept(name, code)` scores it against the library and every earlier accepted one, then adds it.
 */
export class NoveltyIndex {
  private readonly library: Indexed[];
  private readonly accepted: Indexed[] = [];
  private novelCount = 0;
  private newStructureCount = 0;

  constructor(library: readonly { name: string; code: string }[], readonly threshold = DEFAULT_NOVELTY_THRESHOLD) {
    this.library = library.map((l) => index(l.name, l.code));
  }

  /** Scores code without adding it. */
  assess(code: string): NoveltyReport {
    const me = index('', code);
    const copy = this.library.find((l) => l.hash === me.hash);
    const lib = nearest(me.grams, this.library);
    const acc = nearest(me.grams, this.accepted);
    const libShape = nearest(me.shape, this.library, 'shape').sim;
    const accShape = nearest(me.shape, this.accepted, 'shape').sim;
    return {
      libraryCopyOf: copy?.name ?? null, maxLibrarySimilarity: lib.sim, nearestLibrary: lib.name, maxAcceptedSimilarity: acc.sim, nearestAccepted: acc.name,
      novel: !copy && lib.sim < this.threshold && acc.sim < this.threshold,
      maxLibraryStructure: libShape, maxAcceptedStructure: accShape,
      newStructure: !copy && libShape < this.threshold && accShape < this.threshold,
    };
  }

  /** Scores an accepted environment against the library and the earlier accepted ones, then remembers it. */
  accept(name: string, code: string): NoveltyReport {
    const r = this.assess(code);
    this.accepted.push(index(name, code));
    if (r.novel) this.novelCount++;
    if (r.newStructure) this.newStructureCount++;
    return r;
  }

  /** Share of accepted environments that were novel when accepted (0 before any). */
  get novelFraction(): number {
    return this.accepted.length === 0 ? 0 : this.novelCount / this.accepted.length;
  }

  /** Share of accepted environments whose structure was new when accepted (0 before any). */
  get newStructureFraction(): number {
    return this.accepted.length === 0 ? 0 : this.newStructureCount / this.accepted.length;
  }

  get acceptedCount(): number {
    return this.accepted.length;
  }
}
