// Options of the warm start: model shape, budget (steps and a wall-clock cap), batch size, learning rate, data mix,
// seed and output, with defaults and validation whose messages name the field.
import { DEFAULT_POLICY_MODEL } from '../../model/decoder.js';
import { repoPath } from '../../runtime/paths.js';
import type { DocumentSourceKind } from './documents.js';
import { WarmStartOptionsError } from './errors.js';

export interface WarmStartModelOptions {
  layers: number;
  width: number;
  heads: number;
  kvHeads: number;
  contextLength: number;
}

export interface WarmStartOptions {
  /** Decoder shape; the vocab always comes from the tokenizer. */
  model?: Partial<WarmStartModelOptions>;
  /** Optimizer updates (the learning-rate schedule spans them); with planBy 'clock', the first plan. */
  steps?: number;
  /** Wall-clock cap: training stops early (and saves) when it runs out; 0 = none. */
  minutes?: number;
  /** Most tokens (rows x padded length) in one step; a longer row gets a step of its own. */
  batchTokens?: number;
  lr?: number;
  minLr?: number;
  warmupSteps?: number;
  weightDecay?: number;
  seed?: number;
  /** Share of steps that train the agent role (the rest train the designer). */
  agentFraction?: number;
  /**
   * The designer learns the library modules of at most this many tokens (0 = all). A small CPU budget memorises a
   * few short modules exactly rather than all of them approximately; only exact-enough copies validate.
   */
  maxModuleTokens?: number;
  /**
   * 'steps': the schedule spans `steps` updates (deterministic given the seed). 'clock': every `replanEvery` steps the
   * planned step count is re-estimated from the measured step time so that the cosine ends when `minutes` runs out.
   */
  planBy?: 'steps' | 'clock';
  replanEvery?: number;
  /** Designer prompts carry 0..maxMemory memory lines. */
  maxMemory?: number;
  /** Oracle episodes played per library env (seeds 1..n). */
  episodesPerEnv?: number;
  /** Agent prompt budget (agentPrompt's maxPromptTokens); the agent actor should use the same. */
  agentMaxPromptTokens?: number;
  documents?: DocumentSourceKind;
  outDir?: string;
  /** Also write the optimizer state (doubles the checkpoint size). */
  saveOptimizer?: boolean;
  /** Save a checkpoint every this many steps (0 = only at the end). */
  saveEvery?: number;
  /** onnxruntime intra-op threads (0 = its default). */
  threads?: number;
  logEvery?: number;
}

export type ResolvedWarmStartOptions = Required<Omit<WarmStartOptions, 'model'>> & { model: WarmStartModelOptions };

export const DEFAULT_WARM_START_OPTIONS: ResolvedWarmStartOptions = {
  model: { ...DEFAULT_POLICY_MODEL },
  steps: 800,
  minutes: 27,
  batchTokens: 2048,
  lr: 2.5e-3,
  minLr: 2e-4,
  warmupSteps: 30,
  weightDecay: 0.01,
  seed: 1,
  agentFraction: 0.15,
  maxModuleTokens: 1030,
  planBy: 'clock',
  replanEvery: 25,
  maxMemory: 3,
  episodesPerEnv: 8,
  agentMaxPromptTokens: 1024,
  documents: 'auto',
  outDir: repoPath('model', 'checkpoints', 'base'),
  saveOptimizer: false,
  saveEvery: 50,
  threads: 0,
  logEvery: 5,
};

const isInt = (v: unknown, min: number): boolean => Number.isInteger(v) && (v as number) >= min;
const isNum = (v: unknown, min: number, max = Infinity): boolean => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

export function validateWarmStartOptions(o: WarmStartOptions = {}): ResolvedWarmStartOptions {
  const r: ResolvedWarmStartOptions = { ...DEFAULT_WARM_START_OPTIONS, model: { ...DEFAULT_WARM_START_OPTIONS.model, ...o.model } };
  for (const [k, v] of Object.entries(o)) if (k !== 'model' && v !== undefined) (r as unknown as Record<string, unknown>)[k] = v;
  for (const f of ['layers', 'width', 'heads', 'kvHeads', 'contextLength'] as const) {
    if (!isInt(r.model[f], 1)) throw new WarmStartOptionsError(`model.${f}`, 'a positive integer', r.model[f]);
  }
  for (const f of ['steps', 'batchTokens', 'warmupSteps', 'episodesPerEnv', 'agentMaxPromptTokens', 'logEvery'] as const) {
    if (!isInt(r[f], 1)) throw new WarmStartOptionsError(f, 'a positive integer', r[f]);
  }
  if (r.planBy !== 'steps' && r.planBy !== 'clock') throw new WarmStartOptionsError('planBy', "'steps' or 'clock'", r.planBy);
  if (!isInt(r.replanEvery, 1)) throw new WarmStartOptionsError('replanEvery', 'a positive integer', r.replanEvery);
  if (r.planBy === 'clock' && !(r.minutes > 0)) throw new WarmStartOptionsError('minutes', "a positive number when planBy is 'clock'", r.minutes);
  for (const f of ['maxMemory', 'maxModuleTokens', 'saveEvery', 'threads', 'seed'] as const) if (!isInt(r[f], 0)) throw new WarmStartOptionsError(f, 'an integer >= 0', r[f]);
  if (!isNum(r.minutes, 0)) throw new WarmStartOptionsError('minutes', 'a number >= 0', r.minutes);
  if (!isNum(r.lr, 0) || r.lr === 0) throw new WarmStartOptionsError('lr', 'a positive number', r.lr);
  if (!isNum(r.minLr, 0, r.lr)) throw new WarmStartOptionsError('minLr', `a number in [0, lr=${r.lr}]`, r.minLr);
  if (!isNum(r.weightDecay, 0)) throw new WarmStartOptionsError('weightDecay', 'a number >= 0', r.weightDecay);
  if (!isNum(r.agentFraction, 0, 1)) throw new WarmStartOptionsError('agentFraction', 'a number in [0, 1]', r.agentFraction);
  if (!['auto', 'corpus', 'stand-in'].includes(r.documents)) throw new WarmStartOptionsError('documents', "'auto', 'corpus' or 'stand-in'", r.documents);
  if (typeof r.outDir !== 'string' || r.outDir === '') throw new WarmStartOptionsError('outDir', 'a non-empty path', r.outDir);
  if (typeof r.saveOptimizer !== 'boolean') throw new WarmStartOptionsError('saveOptimizer', 'a boolean', r.saveOptimizer);
  return r;
}
