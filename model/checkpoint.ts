// A checkpoint is a directory: model.safetensors (F32 weights), config.json (model config, tokenizer
// reference, policy version, step), tokenizer.json (the project's, or a Hugging Face model's with its
// tokenizer_config.json and generation_config.json beside it), and optionally optimizer.safetensors + optimizer.json.
// Saving is atomic (a temp directory renamed into place); loading validates against a shape table.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { replaceDirectory, writeDurably } from './durable-files.js';
import {
  CheckpointConfigError, CheckpointError, CorruptFileError, DtypeMismatchError, MissingTensorError, ShapeMismatchError, UnexpectedTensorError,
} from './errors.js';
import type { AdamWState } from './optimizer.js';
import { DTYPE_SIZES, MAX_SAFETENSORS_HEADER_BYTES, assertFinite, decodeSafetensors, encodeSafetensors, numel, toFloat32, type FloatDtype, type SafetensorsContents } from './safetensors.js';
import { Tokenizer, type TokenizerJson } from './tokenizer.js';
import { isHfConfig } from './hf-config.js';
import { HfTokenizer } from './hf-tokenizer.js';

export const CHECKPOINT_FILES = {
  weights: 'model.safetensors',
  config: 'config.json',
  tokenizer: 'tokenizer.json',
  optimizer: 'optimizer.safetensors',
  optimizerJson: 'optimizer.json',
} as const;

/** Parameter name -> shape; the decoder's parameterShapes(config) is one. */
export type ShapeTable = ReadonlyMap<string, readonly number[]> | Readonly<Record<string, readonly number[]>>;

export interface CheckpointConfig {
  format: 'spade-checkpoint';
  version: 1;
  /** The model config (layers, width, heads, ...), stored as given. */
  model: Record<string, unknown>;
  tokenizer: { file: string; name: string; kind: string; vocabSize: number; sha256: string };
  policyVersion: number;
  /** Optimizer updates applied to these weights. */
  step: number;
  /** An imported model's own Hugging Face config.json, as it came: an export writes its fields back (hf-config.ts). */
  hfConfig?: Record<string, unknown>;
}

export interface CheckpointContents {
  model: Record<string, unknown>;
  params: ReadonlyMap<string, Float32Array>;
  shapes: ShapeTable;
  /** The project's tokenizer, or a Hugging Face model's (its files are written beside the weights). */
  tokenizer: Tokenizer | TokenizerJson | HfTokenizer;
  policyVersion: number;
  step: number;
  optimizer?: AdamWState;
  /** An imported model's Hugging Face config.json, carried so that its export keeps every field. */
  hfConfig?: Record<string, unknown>;
}

export interface LoadCheckpointOptions {
  /**
   * Expected parameters; without it the file's own names and shapes are taken as they are. A function gets the
   * checkpoint's own model config (e.g. `(m) => parameterShapes(m)`), so a checkpoint of any size is checked against
   * the table its config implies; a config it cannot take is a CheckpointConfigError on `model`.
   */
  shapes?: ShapeTable | ((model: Record<string, unknown>) => ShapeTable);
  /** Weight dtypes accepted (and converted to F32). Default F32 only: anything else is a mismatch. */
  dtypes?: readonly FloatDtype[];
  /** Read the optimizer state when present (default true). */
  optimizer?: boolean;
}

export interface LoadedCheckpoint {
  config: CheckpointConfig;
  params: Map<string, Float32Array>;
  tokenizer: Tokenizer | HfTokenizer;
  optimizer?: AdamWState;
}

const entriesOf = (t: ShapeTable): Array<[string, readonly number[]]> =>
  t instanceof Map ? [...t] : Object.entries(t as Record<string, readonly number[]>);

/** Writes the checkpoint to `dir`, replacing an existing one only once the new one is complete. */
export async function saveCheckpoint(dir: string, c: CheckpointContents): Promise<void> {
  for (const field of ['policyVersion', 'step'] as const) {
    if (!(Number.isInteger(c[field]) && c[field] >= 0)) throw new CheckpointConfigError(`${field} must be an integer >= 0 (got ${c[field]})`, CHECKPOINT_FILES.config, field);
  }
  const shapes = new Map(entriesOf(c.shapes));
  for (const name of c.params.keys()) if (!shapes.has(name)) throw new UnexpectedTensorError(name, CHECKPOINT_FILES.weights);
  const tensors: Array<[string, { shape: readonly number[]; data: Float32Array }]> = [];
  for (const [name, shape] of shapes) {
    const data = c.params.get(name);
    if (data === undefined) throw new MissingTensorError(name, CHECKPOINT_FILES.weights);
    if (data.length !== numel(shape)) throw new ShapeMismatchError(name, shape, [data.length], CHECKPOINT_FILES.weights);
    assertFinite(data, name, CHECKPOINT_FILES.weights); // a diverged model is never saved as if it were good
    tensors.push([name, { shape, data }]);
  }
  // A Hugging Face tokenizer goes along as its own files (tokenizer.json in its format, kind "hf" in config.json).
  const hf = c.tokenizer instanceof HfTokenizer ? c.tokenizer : undefined;
  const tokJson = hf ? undefined : c.tokenizer instanceof Tokenizer ? c.tokenizer.toJSON() : (c.tokenizer as TokenizerJson);
  const tokText = hf ? hf.files.get(CHECKPOINT_FILES.tokenizer) : JSON.stringify(tokJson);
  if (tokText === undefined) throw new CheckpointConfigError('the Hugging Face tokenizer has no tokenizer.json text to save', CHECKPOINT_FILES.tokenizer, 'tokenizer');
  const config: CheckpointConfig = {
    format: 'spade-checkpoint',
    version: 1,
    model: c.model,
    tokenizer: {
      file: CHECKPOINT_FILES.tokenizer, name: hf ? 'tokenizer.json' : tokJson!.name, kind: hf ? 'hf' : tokJson!.kind, vocabSize: hf ? hf.vocabSize : tokJson!.vocabSize,
      sha256: createHash('sha256').update(tokText).digest('hex'),
    },
    policyVersion: c.policyVersion,
    step: c.step,
    ...(c.hfConfig !== undefined ? { hfConfig: c.hfConfig } : {}),
  };
  const files: Array<[string, Uint8Array | string]> = [
    [CHECKPOINT_FILES.weights, encodeSafetensors(tensors, { format: 'pt' })],
    [CHECKPOINT_FILES.tokenizer, tokText],
    ...[...(hf?.files ?? [])].filter(([name]) => name !== CHECKPOINT_FILES.tokenizer && HF_TOKENIZER_SIDE_FILES.includes(name)),
    [CHECKPOINT_FILES.config, JSON.stringify(config, null, 2) + '\n'],
  ];
  if (c.optimizer !== undefined) {
    const moments: Array<[string, { shape: readonly number[]; data: Float32Array }]> = [];
    for (const [name, m] of c.optimizer.m) {
      const shape = shapes.get(name);
      const v = c.optimizer.v.get(name);
      if (shape === undefined) throw new UnexpectedTensorError(`m.${name}`, CHECKPOINT_FILES.optimizer);
      if (v === undefined) throw new MissingTensorError(`v.${name}`, CHECKPOINT_FILES.optimizer);
      if (m.length !== numel(shape)) throw new ShapeMismatchError(`m.${name}`, shape, [m.length], CHECKPOINT_FILES.optimizer);
      if (v.length !== numel(shape)) throw new ShapeMismatchError(`v.${name}`, shape, [v.length], CHECKPOINT_FILES.optimizer);
      assertFinite(m, `m.${name}`, CHECKPOINT_FILES.optimizer);
      assertFinite(v, `v.${name}`, CHECKPOINT_FILES.optimizer);
      moments.push([`m.${name}`, { shape, data: m }], [`v.${name}`, { shape, data: v }]);
    }
    files.push([CHECKPOINT_FILES.optimizer, encodeSafetensors(moments)]);
    files.push([CHECKPOINT_FILES.optimizerJson, JSON.stringify({ step: c.optimizer.step }) + '\n']);
  }

  await replaceDirectory(dir, `checkpoint ${dir}`, async (tmp) => {
    for (const [name, data] of files) await writeDurably(join(tmp, name), data);
  });
}

/** Files of a Hugging Face tokenizer kept beside tokenizer.json in a checkpoint. */
const HF_TOKENIZER_SIDE_FILES = ['tokenizer_config.json', 'special_tokens_map.json', 'generation_config.json'];

async function hfTokenizerTexts(dir: string, tokText: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>([[CHECKPOINT_FILES.tokenizer, tokText]]);
  for (const f of HF_TOKENIZER_SIDE_FILES) {
    const text = await readFile(join(dir, f), 'utf8').catch(() => undefined);
    if (text !== undefined) texts.set(f, text);
  }
  return texts;
}

/** A checkpoint's config and tokenizer alone, checked against the recorded sha256; no weight is read. */
export async function loadCheckpointTokenizer(dir: string): Promise<{ config: CheckpointConfig; tokenizer: Tokenizer | HfTokenizer }> {
  const config = parseConfig(await readText(join(dir, CHECKPOINT_FILES.config)), CHECKPOINT_FILES.config);
  const tokText = await readText(join(dir, config.tokenizer.file));
  if (createHash('sha256').update(tokText).digest('hex') !== config.tokenizer.sha256) {
    throw new CheckpointConfigError('tokenizer file does not match the sha256 recorded in config.json', config.tokenizer.file, 'tokenizer.sha256');
  }
  try {
    return { config, tokenizer: config.tokenizer.kind === 'hf' ? HfTokenizer.fromFiles(await hfTokenizerTexts(dir, tokText)) : new Tokenizer(JSON.parse(tokText) as TokenizerJson) };
  } catch (cause) {
    throw new CheckpointConfigError(`invalid tokenizer: ${(cause as Error).message}`, config.tokenizer.file, 'tokenizer', cause);
  }
}

/** Reads a checkpoint and checks every tensor's name, dtype, shape and values (finite) before returning any of it. */
export async function loadCheckpoint(dir: string, options: LoadCheckpointOptions = {}): Promise<LoadedCheckpoint> {
  const { config, tokenizer } = await loadCheckpointTokenizer(dir);
  // The embedding may be padded past the tokenizer's vocab, never short of it (ids would fall off the table).
  const modelVocab = config.model.vocab;
  if (typeof modelVocab === 'number' && modelVocab < tokenizer.vocabSize) {
    throw new CheckpointConfigError(`model.vocab ${modelVocab} is smaller than the tokenizer's vocab ${tokenizer.vocabSize}`, CHECKPOINT_FILES.config, 'model.vocab');
  }
  const expected = options.shapes === undefined ? undefined : new Map(entriesOf(shapesFor(options.shapes, config.model)));
  const dtypes = options.dtypes ?? ['F32'];
  const widest = Math.max(...dtypes.map((d) => DTYPE_SIZES[d]!));
  const weightsPath = join(dir, CHECKPOINT_FILES.weights);
  if (expected !== undefined) await refuseOversize(weightsPath, CHECKPOINT_FILES.weights, [...expected.values()].reduce((n, s) => n + numel(s) * widest, 0));
  const weights = decodeSafetensors(await readBytes(weightsPath), CHECKPOINT_FILES.weights);
  const params = checkTensors(weights, expected, dtypes, CHECKPOINT_FILES.weights);
  const result: LoadedCheckpoint = { config, params, tokenizer };
  if (options.optimizer !== false && (await stat(join(dir, CHECKPOINT_FILES.optimizer)).catch(() => undefined))) {
    const table = new Map([...params].map(([n, p]) => [n, expected?.get(n) ?? weights.tensors.get(n)!.shape] as const));
    const both = new Map<string, readonly number[]>();
    for (const [n, s] of table) both.set(`m.${n}`, s).set(`v.${n}`, s);
    const optimizerPath = join(dir, CHECKPOINT_FILES.optimizer);
    await refuseOversize(optimizerPath, CHECKPOINT_FILES.optimizer, [...both.values()].reduce((n, s) => n + numel(s) * 4, 0));
    const file = decodeSafetensors(await readBytes(optimizerPath), CHECKPOINT_FILES.optimizer);
    // The state may cover only parameters that were trained so far: require m and v in pairs.
    for (const n of file.tensors.keys()) {
      const twin = n.startsWith('m.') ? `v.${n.slice(2)}` : `m.${n.slice(2)}`;
      if (!both.has(n)) throw new UnexpectedTensorError(n, CHECKPOINT_FILES.optimizer);
      if (!file.tensors.has(twin)) throw new MissingTensorError(twin, CHECKPOINT_FILES.optimizer);
    }
    const present = new Map([...both].filter(([n]) => file.tensors.has(n)));
    const moments = checkTensors(file, present, ['F32'], CHECKPOINT_FILES.optimizer);
    const json = parseJson(await readText(join(dir, CHECKPOINT_FILES.optimizerJson)), CHECKPOINT_FILES.optimizerJson) as { step?: unknown };
    if (!(Number.isInteger(json.step) && (json.step as number) >= 0)) {
      throw new CheckpointConfigError('step must be an integer >= 0', CHECKPOINT_FILES.optimizerJson, 'step');
    }
    const m = new Map<string, Float32Array>(), v = new Map<string, Float32Array>();
    for (const [n, a] of moments) (n.startsWith('m.') ? m : v).set(n.slice(2), a);
    // A negative second moment would make the next update's sqrt(v) NaN.
    for (const [n, a] of v) {
      const i = a.findIndex((x) => x < 0);
      if (i >= 0) throw new CorruptFileError(`tensor "v.${n}" holds ${a[i]} at element ${i}: second moments are >= 0`, CHECKPOINT_FILES.optimizer);
    }
    result.optimizer = { step: json.step as number, m, v };
  }
  return result;
}

/**
 * A file bigger than its tensors plus the largest header allowed cannot be a checkpoint of this model: refused from
 * its size, before it is read into memory.
 */
async function refuseOversize(path: string, file: string, dataBytes: number): Promise<void> {
  const size = (await stat(path).catch(() => undefined))?.size;
  const limit = 8 + MAX_SAFETENSORS_HEADER_BYTES + dataBytes;
  if (size !== undefined && size > limit) throw new CorruptFileError(`${size} bytes, more than the ${limit} its tensors and the largest header allowed take: not read`, file);
}

function shapesFor(shapes: NonNullable<LoadCheckpointOptions['shapes']>, model: Record<string, unknown>): ShapeTable {
  if (typeof shapes !== 'function') return shapes;
  try {
    return shapes(model);
  } catch (cause) {
    throw new CheckpointConfigError(`model: ${(cause as Error).message}`, CHECKPOINT_FILES.config, 'model', cause);
  }
}

function checkTensors(
  file: SafetensorsContents, expected: ReadonlyMap<string, readonly number[]> | undefined,
  dtypes: readonly FloatDtype[], fileName: string,
): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const names = expected === undefined ? [...file.tensors.keys()].sort() : [...expected.keys()];
  for (const name of names) {
    const t = file.tensors.get(name);
    if (t === undefined) throw new MissingTensorError(name, fileName);
    if (!(dtypes as readonly string[]).includes(t.dtype)) throw new DtypeMismatchError(name, dtypes, t.dtype, fileName);
    const want = expected?.get(name);
    if (want !== undefined && (want.length !== t.shape.length || want.some((d, i) => d !== t.shape[i]))) {
      throw new ShapeMismatchError(name, want, t.shape, fileName);
    }
    const values = toFloat32(t, name, fileName);
    assertFinite(values, name, fileName); // after conversion: an F64 beyond the F32 range is an infinity too
    out.set(name, values);
  }
  if (expected !== undefined) for (const name of [...file.tensors.keys()].sort()) if (!expected.has(name)) throw new UnexpectedTensorError(name, fileName);
  return out;
}

function parseConfig(text: string, file: string): CheckpointConfig {
  const c = parseJson(text, file) as Partial<CheckpointConfig>;
  const need = (ok: boolean, field: string, what: string): void => {
    if (!ok) throw new CheckpointConfigError(`${field} must be ${what}`, file, field);
  };
  const raw: unknown = c;
  if (isHfConfig(raw)) {
    throw new CheckpointConfigError(`a Hugging Face model directory (model_type ${JSON.stringify(raw.model_type)}): loadModel (model/load-model.ts) reads it, `
      + 'and every command that takes a model goes through it', file, 'format');
  }
  need(c.format === 'spade-checkpoint' && c.version === 1, 'format/version', '"spade-checkpoint"/1');
  need(c.model !== null && typeof c.model === 'object', 'model', 'an object');
  need(c.tokenizer !== null && typeof c.tokenizer === 'object' && typeof c.tokenizer.file === 'string' && typeof c.tokenizer.sha256 === 'string',
    'tokenizer', 'an object with file and sha256');
  need(/^[\w.-]+$/.test(c.tokenizer!.file), 'tokenizer.file', 'a file name inside the checkpoint');
  need(Number.isInteger(c.policyVersion) && c.policyVersion! >= 0, 'policyVersion', 'an integer >= 0');
  need(Number.isInteger(c.step) && c.step! >= 0, 'step', 'an integer >= 0');
  need(c.hfConfig === undefined || isHfConfig(c.hfConfig), 'hfConfig', 'absent or a Hugging Face config object (with model_type)');
  return c as CheckpointConfig;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CheckpointConfigError(`not valid JSON (${(cause as Error).message})`, file, undefined, cause);
  }
}

async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (cause) {
    throw new CheckpointError(`cannot read ${path}: ${(cause as Error).message}`, { code: 'CHECKPOINT_READ', cause, file: basename(path) });
  }
}

async function readText(path: string): Promise<string> {
  return Buffer.from(await readBytes(path)).toString('utf8');
}
