// Tokenizers for the policy: plain UTF-8 bytes, or byte-level BPE trained by scripts/train-tokenizer.ts.
// Both share ids 0..255 (bytes) and a fixed block of special tokens (role markers, end of turn).
import { readFileSync } from 'node:fs';
import { bytesLatin1, forEachPretoken, PRETOKENIZER_NAME, utf8Latin1 } from './bpe-pretokenize.js';
import { pairKey } from './bpe-train.js';
import { TokenizerError } from './errors.js';
import { repoPath } from '../runtime/paths.js';

/**
 * The special tokens, at ids 256.. in this order. Plain text never encodes to them: `encode`
 * treats "<|eos|>" in text as ordinary bytes; only `specialId`/`encodeTurn` produce them.
 *  pad: fills batches (never trained on); bos/eos: start and end of a sequence;
 *  end_turn: closes one role's turn; designer/agent/env/hint/doc/system: open a turn of that kind
 *  (env = an environment observation, hint = the privileged hint, doc = a grounding document).
 *  reserved_*: free slots, so adding a special later keeps every other id stable.
 */
export const SPECIAL_TOKENS = [
  '<|pad|>', '<|bos|>', '<|eos|>', '<|end_turn|>',
  '<|designer|>', '<|agent|>', '<|env|>', '<|hint|>', '<|doc|>', '<|system|>',
  '<|reserved_10|>', '<|reserved_11|>', '<|reserved_12|>', '<|reserved_13|>', '<|reserved_14|>', '<|reserved_15|>',
] as const;

export type SpecialToken = (typeof SPECIAL_TOKENS)[number];
export type TurnRole = 'designer' | 'agent' | 'env' | 'hint' | 'doc' | 'system';

export const FIRST_SPECIAL_ID = 256;
/** First id of a BPE merge; also the vocab size of the byte-level tokenizer. */
export const FIRST_MERGE_ID = FIRST_SPECIAL_ID + SPECIAL_TOKENS.length;

/** The on-disk form of a tokenizer (model/tokenizer/*.json and tokenizer.json in checkpoints). */
export interface TokenizerJson {
  format: 'spade-tokenizer';
  version: 1;
  kind: 'byte' | 'bpe';
  name: string;
  pretokenizer: string;
  specials: string[];
  vocabSize: number;
  /** Flat pairs [a0, b0, a1, b1, ...]; merge i makes id FIRST_MERGE_ID + i. */
  merges: number[];
  /** Provenance (inputs, byte count, corpus hash); informative only. */
  training?: Record<string, unknown>;
}

const CACHE_LIMIT = 1 << 17;

export class Tokenizer {
  readonly kind: 'byte' | 'bpe';
  readonly name: string;
  readonly vocabSize: number;
  private readonly ranks = new Map<number, number>(); // pair key -> merged id (lower id = earlier merge)
  private readonly pieces: Uint8Array[] = []; // id -> bytes
  private readonly cache = new Map<string, number[]>();
  private readonly json: TokenizerJson;

  constructor(json: TokenizerJson) {
    validateTokenizerJson(json);
    this.json = json;
    this.kind = json.kind;
    this.name = json.name;
    this.vocabSize = json.vocabSize;
    for (let b = 0; b < 256; b++) this.pieces.push(Uint8Array.of(b));
    for (const s of SPECIAL_TOKENS) this.pieces.push(new Uint8Array(Buffer.from(s, 'utf8')));
    for (let i = 0; i < json.merges.length; i += 2) {
      const a = json.merges[i]!, b = json.merges[i + 1]!;
      const id = FIRST_MERGE_ID + i / 2;
      this.ranks.set(pairKey(a, b), id);
      const pa = this.pieces[a]!, pb = this.pieces[b]!;
      const p = new Uint8Array(pa.length + pb.length);
      p.set(pa);
      p.set(pb, pa.length);
      this.pieces.push(p);
    }
  }

  /** Token ids of plain text. Never yields a special token, whatever the text contains. */
  encode(text: string): number[] {
    return this.encodeLatin1(utf8Latin1(text));
  }

  /** Token ids of arbitrary bytes (need not be valid UTF-8); decodeBytes gives them back exactly. */
  encodeBytes(bytes: Uint8Array): number[] {
    return this.encodeLatin1(bytesLatin1(bytes));
  }

  /** One turn: the role's marker, the text, then <|end_turn|>. */
  encodeTurn(role: TurnRole, text: string): number[] {
    return [this.specialId(`<|${role}|>` as SpecialToken), ...this.encode(text), this.specialId('<|end_turn|>')];
  }

  specialId(token: SpecialToken): number {
    const i = SPECIAL_TOKENS.indexOf(token);
    if (i < 0) throw new TokenizerError(`unknown special token ${JSON.stringify(token)}`, { code: 'TOKENIZER_SPECIAL' });
    return FIRST_SPECIAL_ID + i;
  }

  isSpecial(id: number): boolean {
    return id >= FIRST_SPECIAL_ID && id < FIRST_MERGE_ID;
  }

  /** The bytes a token stands for (a special token stands for its marker text). */
  tokenBytes(id: number): Uint8Array {
    const p = this.pieces[id];
    if (p === undefined) throw this.badId(id);
    return p;
  }

  decodeBytes(ids: ArrayLike<number>): Uint8Array {
    let n = 0;
    for (let i = 0; i < ids.length; i++) {
      const p = this.pieces[ids[i]!];
      if (p === undefined) throw this.badId(ids[i]!);
      n += p.length;
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      const p = this.pieces[ids[i]!]!;
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** Text of the ids; invalid UTF-8 (a sequence cut mid-character) becomes U+FFFD. */
  decode(ids: ArrayLike<number>): string {
    const b = this.decodeBytes(ids);
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  toJSON(): TokenizerJson {
    return this.json;
  }

  private encodeLatin1(latin1: string): number[] {
    const out: number[] = new Array(this.ranks.size === 0 ? latin1.length : 0);
    if (this.ranks.size === 0) {
      for (let i = 0; i < latin1.length; i++) out[i] = latin1.charCodeAt(i);
      return out;
    }
    forEachPretoken(latin1, (piece) => {
      let ids = this.cache.get(piece);
      if (ids === undefined) {
        ids = this.mergePiece(piece);
        if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
        this.cache.set(piece, ids);
      }
      for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
    });
    return out;
  }

  // Repeatedly merges the leftmost pair with the lowest merge id: the same result as replaying the
  // merges in training order, since a pair made by a merge always ranks after that merge.
  private mergePiece(piece: string): number[] {
    const s: number[] = new Array(piece.length);
    for (let i = 0; i < piece.length; i++) s[i] = piece.charCodeAt(i);
    while (s.length > 1) {
      let best = Infinity, at = -1;
      for (let i = 0; i + 1 < s.length; i++) {
        const id = this.ranks.get(pairKey(s[i]!, s[i + 1]!));
        if (id !== undefined && id < best) {
          best = id;
          at = i;
        }
      }
      if (at < 0) break;
      s.splice(at, 2, best);
    }
    return s;
  }

  private badId(id: number): TokenizerError {
    return new TokenizerError(`token id ${id} is outside the vocab [0, ${this.vocabSize})`, {
      code: 'TOKENIZER_ID',
      data: { id, vocabSize: this.vocabSize },
    });
  }
}

/** The byte-level tokenizer: 256 bytes + the special tokens. */
export function byteTokenizer(): Tokenizer {
  return new Tokenizer({
    format: 'spade-tokenizer', version: 1, kind: 'byte', name: 'bytes', pretokenizer: PRETOKENIZER_NAME,
    specials: [...SPECIAL_TOKENS], vocabSize: FIRST_MERGE_ID, merges: [],
  });
}

/** Name of the vocab file shipped under model/tokenizer/ and used when none is named. */
export const DEFAULT_TOKENIZER = 'bpe-2048';

/** Loads a tokenizer: "bytes", the name of a shipped vocab (model/tokenizer/<name>.json), or a path to a JSON file. */
export function loadTokenizer(nameOrPath: string = DEFAULT_TOKENIZER): Tokenizer {
  if (nameOrPath === 'bytes') return byteTokenizer();
  const file = /[\\/]|\.json$/.test(nameOrPath) ? nameOrPath : repoPath('model', 'tokenizer', `${nameOrPath}.json`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new TokenizerError(`cannot read tokenizer ${file}: ${(cause as Error).message}`, { code: 'TOKENIZER_FILE', cause });
  }
  return new Tokenizer(json as TokenizerJson);
}

export function validateTokenizerJson(j: TokenizerJson): void {
  const bad = (field: string, why: string): TokenizerError =>
    new TokenizerError(`tokenizer JSON: ${field} ${why}`, { code: 'TOKENIZER_FORMAT', data: { field } });
  if (j === null || typeof j !== 'object') throw bad('(root)', 'must be an object');
  if (j.format !== 'spade-tokenizer' || j.version !== 1) throw bad('format/version', 'must be "spade-tokenizer"/1');
  if (j.kind !== 'byte' && j.kind !== 'bpe') throw bad('kind', 'must be "byte" or "bpe"');
  if (j.pretokenizer !== PRETOKENIZER_NAME) throw bad('pretokenizer', `must be "${PRETOKENIZER_NAME}" (got ${j.pretokenizer})`);
  if (!Array.isArray(j.specials) || j.specials.join('\n') !== SPECIAL_TOKENS.join('\n')) {
    throw bad('specials', 'must list the built-in special tokens in order');
  }
  if (!Array.isArray(j.merges) || j.merges.length % 2 !== 0) throw bad('merges', 'must be a flat list of pairs');
  for (let i = 0; i < j.merges.length; i++) {
    const v = j.merges[i]!;
    const limit = FIRST_MERGE_ID + (i >> 1);
    if (!Number.isInteger(v) || v < 0 || v >= limit || (v >= FIRST_SPECIAL_ID && v < FIRST_MERGE_ID)) {
      throw bad(`merges[${i}]`, `must be a byte or earlier merge id below ${limit} (got ${v})`);
    }
  }
  if (j.vocabSize !== FIRST_MERGE_ID + j.merges.length / 2) throw bad('vocabSize', `must be ${FIRST_MERGE_ID + j.merges.length / 2}`);
  if (j.kind === 'byte' && j.merges.length > 0) throw bad('merges', 'must be empty for kind "byte"');
}
