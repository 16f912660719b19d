// One loader for either kind of model directory the engine runs: a SPADE checkpoint or a Hugging Face
// directory (llama, qwen2, qwen3). What comes back is the decoder config, F32 parameters and a tokenizer.
import { join } from 'node:path';
import { loadCheckpoint, loadCheckpointTokenizer } from './checkpoint.js';
import { checkpointShapes } from './decoder.js';
import { validateDecoderConfig, type ResolvedDecoderConfig } from './decoder-config.js';
import { HF_TOKENIZER_FILES, isHfDirectory, loadHfModel, readHfTokenizer, saveHfModel } from './hf-checkpoint.js';
import { HfTokenizer, type ChatMessage } from './hf-tokenizer.js';
import { FLOAT_DTYPES } from './safetensors.js';
import type { Tokenizer } from './tokenizer.js';

/** What the model commands need of a tokenizer, whichever kind. */
export interface ModelTokenizer {
  kind: 'spade' | 'hf';
  name: string;
  vocabSize: number;
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
  /** Ids that end a generation. */
  stopIds: number[];
  /** A conversation's prompt ids, through the model's chat template; absent when there is none. */
  encodeChat?: (messages: readonly ChatMessage[]) => number[];
}

export interface LoadedModel {
  format: 'spade' | 'hf';
  dir: string;
  model: ResolvedDecoderConfig;
  params: Map<string, Float32Array>;
  /** Stored dtypes, e.g. ['BF16'] (converted to F32 on load). */
  dtypes: string[];
  tokenizer: ModelTokenizer | undefined;
  /** The tokenizer itself, for building prompts (model/prompt-format.ts) and saving checkpoints. */
  codec: Tokenizer | HfTokenizer | undefined;
  policyVersion: number;
  step: number;
  /**
   * Hugging Face directories: config.json as stored; a SPADE checkpoint of an imported model: that model's config.json,
   * which it carries (an export writes it back). Also the tokenizer files present.
   */
  hfConfig?: Record<string, unknown>;
  tokenizerFiles?: string[];
  /** SPADE checkpoints: the project's own tokenizer. */
  spadeTokenizer?: Tokenizer;
}

export async function loadModel(dir: string): Promise<LoadedModel> {
  if (await isHfDirectory(dir)) {
    const hf = await loadHfModel(dir);
    return {
      format: 'hf', dir, model: hf.model, params: hf.params, dtypes: [...new Set(hf.dtypes.values())].sort(),
      tokenizer: hf.tokenizer && hfModelTokenizer(hf.tokenizer), codec: hf.tokenizer, policyVersion: 0, step: 0, hfConfig: hf.hfConfig, tokenizerFiles: hf.tokenizerFiles,
    };
  }
  const ck = await loadCheckpoint(dir, { optimizer: false, shapes: checkpointShapes, dtypes: FLOAT_DTYPES });
  const tok = ck.tokenizer;
  const common = {
    dir, model: validateDecoderConfig(ck.config.model), params: ck.params, dtypes: ['F32'] as string[], codec: tok, policyVersion: ck.config.policyVersion, step: ck.config.step,
    format: 'spade' as const, ...(ck.config.hfConfig !== undefined ? { hfConfig: ck.config.hfConfig } : {}),
  };
  // A SPADE checkpoint of an imported model (the learner's, say) carries that model's Hugging Face tokenizer.
  if (tok instanceof HfTokenizer) return { ...common, tokenizer: hfModelTokenizer(tok), tokenizerFiles: [...tok.files.keys()] };
  return {
    ...common,
    tokenizer: {
      kind: 'spade', name: tok.name, vocabSize: tok.vocabSize, encode: (t) => tok.encode(t), decode: (ids) => tok.decode(ids),
      stopIds: [tok.specialId('<|eos|>'), tok.specialId('<|end_turn|>')],
    },
    spadeTokenizer: tok,
  };
}

/** A model directory's tokenizer alone, either kind, reading no weight (undefined: a Hugging Face directory without tokenizer.json). */
export async function loadModelCodec(dir: string): Promise<Tokenizer | HfTokenizer | undefined> {
  if (await isHfDirectory(dir)) return readHfTokenizer(dir);
  return (await loadCheckpointTokenizer(dir)).tokenizer;
}

function hfModelTokenizer(t: HfTokenizer): ModelTokenizer {
  const out: ModelTokenizer = {
    kind: 'hf', name: 'tokenizer.json', vocabSize: t.vocabSize, encode: (s) => t.encode(s), decode: (ids) => t.decode(ids), stopIds: t.stopIds,
  };
  if (t.chatTemplate !== undefined) out.encodeChat = (m) => t.encodeChat(m);
  return out;
}

/**
 * Writes a loaded model (after training, with `params` replaced) as a Hugging Face directory. An imported model's
 * tokenizer files are copied as they were; a SPADE checkpoint's own tokenizer goes along as spade-tokenizer.json.
 */
export async function exportModel(m: LoadedModel, outDir: string, params: ReadonlyMap<string, Float32Array> = m.params): Promise<void> {
  const copy = new Map<string, string>();
  for (const f of m.tokenizerFiles ?? []) if ((HF_TOKENIZER_FILES as readonly string[]).includes(f)) copy.set(f, join(m.dir, f));
  const write = new Map<string, string>();
  if (m.spadeTokenizer !== undefined) write.set('spade-tokenizer.json', JSON.stringify(m.spadeTokenizer.toJSON()));
  await saveHfModel(outDir, { model: m.model, params, hfConfig: m.hfConfig, copy, write });
}
