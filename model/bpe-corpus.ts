// Finds the text files a tokenizer trains on (glob patterns or paths, relative to the repo root)
// and turns their contents into a BPE tokenizer JSON.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { PRETOKENIZER_NAME, utf8Latin1 } from './bpe-pretokenize.js';
import { PretokenCounter, trainBpe } from './bpe-train.js';
import { ModelOptionError, TokenizerError } from './errors.js';
import { FIRST_MERGE_ID, SPECIAL_TOKENS, type TokenizerJson } from './tokenizer.js';

/** Default training inputs: the environment library and kit (not envs/heldout: the held-out suite stays out of
 * everything that trains), the docs, the grounding corpus, and (until the corpus is large) the project's own
 * TypeScript, the biggest body of code-like text in the repo. */
export const DEFAULT_TOKENIZER_INPUTS = [
  'envs/library/**/*.js', 'envs/kit.js', 'docs/**/*.md', 'corpus/**/*.{md,txt}', '{actors,runtime,sandbox,model,envs,scripts}/**/*.ts',
];

/**
 * Expands globs (`**` any depth, `*` within a name, `?`, `{a,b}`) and plain paths (a file, or a
 * directory meaning everything under it) against `root`. Sorted, deduplicated relative paths;
 * a pattern matching nothing adds nothing.
 */
export function expandInputs(patterns: readonly string[], root: string): string[] {
  const found = new Set<string>();
  for (const pattern of patterns) {
    const abs = isAbsolute(pattern) ? pattern : join(root, pattern);
    if (!/[*?{]/.test(pattern)) {
      const st = statSync(abs, { throwIfNoEntry: false });
      if (st?.isFile()) found.add(relative(root, abs));
      else if (st?.isDirectory()) for (const f of walk(abs)) found.add(relative(root, f));
      continue;
    }
    const parts = abs.split(sep);
    const firstGlob = parts.findIndex((p) => /[*?{]/.test(p));
    const base = parts.slice(0, firstGlob).join(sep) || sep;
    const re = globRegex(parts.slice(firstGlob).join('/'));
    if (!statSync(base, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const f of walk(base)) {
      if (re.test(relative(base, f).split(sep).join('/'))) found.add(relative(root, f));
    }
  }
  return [...found].sort();
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export interface TrainTokenizerOptions {
  /** Total vocab: 256 bytes + the special tokens + merges. */
  vocabSize: number;
  name?: string;
  /** Recorded in the JSON's provenance. */
  inputs?: readonly string[];
}

export function validateTrainTokenizerOptions(o: TrainTokenizerOptions): void {
  if (!Number.isInteger(o.vocabSize) || o.vocabSize < FIRST_MERGE_ID || o.vocabSize > 65536) {
    throw new ModelOptionError('vocabSize', `an integer in [${FIRST_MERGE_ID}, 65536]`, o.vocabSize);
  }
}

/** Trains a BPE tokenizer on documents. Deterministic: same documents in the same order, same JSON. */
export function trainTokenizer(documents: Iterable<string>, options: TrainTokenizerOptions): TokenizerJson {
  validateTrainTokenizerOptions(options);
  const counter = new PretokenCounter();
  const hash = createHash('sha256');
  let bytes = 0, docs = 0;
  for (const d of documents) {
    const latin1 = utf8Latin1(d);
    hash.update(latin1, 'latin1');
    bytes += latin1.length;
    docs++;
    counter.add(latin1);
  }
  if (bytes === 0) throw new TokenizerError('tokenizer training corpus is empty', { code: 'TOKENIZER_CORPUS' });
  const merges = trainBpe(counter.counts, { merges: options.vocabSize - FIRST_MERGE_ID, firstMergeId: FIRST_MERGE_ID });
  return {
    format: 'spade-tokenizer',
    version: 1,
    kind: 'bpe',
    name: options.name ?? `bpe-${options.vocabSize}`,
    pretokenizer: PRETOKENIZER_NAME,
    specials: [...SPECIAL_TOKENS],
    vocabSize: FIRST_MERGE_ID + merges.length / 2,
    merges,
    training: { inputs: options.inputs ?? [], documents: docs, bytes, sha256: hash.digest('hex') },
  };
}

/** Reads the files as UTF-8 documents. */
export function readDocuments(files: readonly string[], root: string): string[] {
  return files.map((f) => readFileSync(isAbsolute(f) ? f : join(root, f), 'utf8'));
}
