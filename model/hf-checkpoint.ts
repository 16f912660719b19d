// A Hugging Face model directory as a whole: config.json, weights (one file or shards), and the tokenizer
// files, read into the decoder's config and parameters, and written back out in the layout transformers loads.
import { copyFile, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CheckpointConfigError, CheckpointError } from './errors.js';
import { decoderConfigFromHf, hfConfigFromDecoder, isHfConfig } from './hf-config.js';
import { HF_WEIGHTS, encodeHfWeights, readHfWeights } from './hf-weights.js';
import { HfTokenizer } from './hf-tokenizer.js';
import { replaceDirectory, writeDurably } from './durable-files.js';
import type { ResolvedDecoderConfig } from './decoder-config.js';

/** Tokenizer and generation files carried through an import and export unchanged. */
export const HF_TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'generation_config.json'] as const;

export interface HfModel {
  /** config.json as stored. */
  hfConfig: Record<string, unknown>;
  model: ResolvedDecoderConfig;
  params: Map<string, Float32Array>;
  /** Stored dtype per parameter (they are F32 in memory). */
  dtypes: Map<string, string>;
  /** Present when the directory has tokenizer.json. */
  tokenizer?: HfTokenizer;
  /** Which of HF_TOKENIZER_FILES the directory has. */
  tokenizerFiles: string[];
}

/** A JSON object file of the directory, or undefined when the file does not exist. */
export async function readJsonFile(path: string, file = basename(path)): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new CheckpointError(`cannot read ${path}: ${e.message}`, { code: 'CHECKPOINT_READ', cause: e, file });
  });
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (cause) {
    throw new CheckpointConfigError(`not valid JSON (${(cause as Error).message})`, file, undefined, cause);
  }
}

export async function isHfDirectory(dir: string): Promise<boolean> {
  return isHfConfig(await readJsonFile(join(dir, 'config.json')).catch(() => undefined));
}

export async function loadHfModel(dir: string): Promise<HfModel> {
  const hfConfig = await readJsonFile(join(dir, 'config.json'));
  if (!isHfConfig(hfConfig)) throw new CheckpointConfigError('not a Hugging Face config (no model_type)', 'config.json', 'model_type');
  const model = decoderConfigFromHf(hfConfig);
  const { params, dtypes } = await readHfWeights(dir, model);
  const tokenizerFiles = await hfTokenizerFiles(dir);
  const result: HfModel = { hfConfig, model, params, dtypes, tokenizerFiles };
  const tokenizer = await readHfTokenizer(dir, tokenizerFiles);
  if (tokenizer !== undefined) {
    result.tokenizer = tokenizer;
    if (tokenizer.vocabSize > model.vocab) {
      throw new CheckpointConfigError(`tokenizer has ${tokenizer.vocabSize} ids, more than vocab_size ${model.vocab}`, 'tokenizer.json', 'vocab_size');
    }
  }
  return result;
}

/** Which of HF_TOKENIZER_FILES the directory has. */
export async function hfTokenizerFiles(dir: string): Promise<string[]> {
  const present: string[] = [];
  for (const f of HF_TOKENIZER_FILES) if (await stat(join(dir, f)).catch(() => undefined)) present.push(f);
  return present;
}

/** A Hugging Face directory's tokenizer (undefined without tokenizer.json); no weight is read. */
export async function readHfTokenizer(dir: string, files?: readonly string[]): Promise<HfTokenizer | undefined> {
  const present = files ?? (await hfTokenizerFiles(dir));
  if (!present.includes('tokenizer.json')) return undefined;
  // Each file is checked as JSON (naming it) before the tokenizer reads the texts, which it keeps to carry along.
  const texts = new Map<string, string>();
  for (const f of present) {
    await readJsonFile(join(dir, f));
    texts.set(f, await readFile(join(dir, f), 'utf8'));
  }
  return HfTokenizer.fromFiles(texts);
}

export interface SaveHfModelOptions {
  model: ResolvedDecoderConfig;
  params: ReadonlyMap<string, Float32Array>;
  /** An imported model's config.json: its other fields (token ids) are kept. */
  hfConfig?: Record<string, unknown>;
  /** Extra files, name -> where to copy them from (tokenizer files). */
  copy?: ReadonlyMap<string, string>;
  /** Extra files written from text. */
  write?: ReadonlyMap<string, string>;
}

/** Writes a Hugging Face directory; an existing `dir` is replaced only once the new one is complete and synced. */
export async function saveHfModel(dir: string, o: SaveHfModelOptions): Promise<void> {
  const config = hfConfigFromDecoder(o.model, o.hfConfig);
  const weights = encodeHfWeights(o.model, o.params);
  await replaceDirectory(dir, dir, async (tmp) => {
    await writeDurably(join(tmp, HF_WEIGHTS.single), weights);
    await writeDurably(join(tmp, 'config.json'), JSON.stringify(config, null, 2) + '\n');
    for (const [name, from] of o.copy ?? []) await copyFile(from, join(tmp, name));
    for (const [name, text] of o.write ?? []) await writeDurably(join(tmp, name), text);
  }, { recursive: true });
}
