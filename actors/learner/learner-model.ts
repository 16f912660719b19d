// Where the learner's model comes from at start: its own latest checkpoint (resume), else a base checkpoint or a
// Hugging Face directory (through loadModel; fresh optimizer), else seeded fresh weights. Places the trainer on a
// worker thread (ownThread, the default) or on this one (trainer-thread.ts placeTrainer); a learner group's too.
import {
  HfTokenizer, checkpointShapes, initParameters, loadModel, loadTokenizer, validateDecoderConfig,
  type DecoderConfig, type ResolvedDecoderConfig, type Tokenizer,
} from '../../model/index.js';
import type { LoopOptions } from '../loop/options.js';
import { resolvePolicyModel } from '../loop/policy/policy-model.js';
import { LearnerStateError } from './errors.js';
import { klReference } from './kl-reference.js';
import { weightsMisfit } from './weights-fit.js';
import { loadLearnerCheckpoint, type LearnerState } from './learner-checkpoint.js';
import type { LearnerOptions, ResolvedLearnerOptions } from './options.js';
import { placeTrainer, type TrainerHandle } from './trainer-thread.js';

export interface LoadedLearnerModel {
  config: ResolvedDecoderConfig;
  trainer: TrainerHandle;
  /** Saved with each checkpoint: the project's, or the imported model's own. */
  tokenizer: Tokenizer | HfTokenizer;
  /** An imported model's Hugging Face config.json (from the init directory, or carried by the checkpoint resumed). */
  hfConfig?: Record<string, unknown>;
  state: LearnerState;
  /** 'resume' | 'init-checkpoint' | 'fresh', or 'group' once replaced by a learner group's newer state. */
  origin: 'resume' | 'init-checkpoint' | 'fresh' | 'group';
  /** Updates these weights hold that this learner did not apply (a group's rounds it missed): their trajectory ids. */
  missed?: Array<[update: number, ids: string[]]>;
}

/** The model the samplers run (resolvePolicyModel), as learner options, so published weights match it. */
export function learnerModelFrom(policy: LoopOptions['policy']): Pick<LearnerOptions, 'init' | 'model'> {
  const m = resolvePolicyModel(policy);
  const init = { tokenizer: policy.tokenizer, seed: policy.init.seed };
  return m.kind === 'checkpoint' ? { init: { ...init, checkpoint: m.dir } } : { init, model: m.config };
}

const FRESH_STATE: LearnerState = { version: 0, updates: 0, applied: 0, dropped: 0, lastStreamSeq: 0 };

export async function loadLearnerModel(stateDir: string, o: ResolvedLearnerOptions, threads: number): Promise<LoadedLearnerModel> {
  let model: DecoderConfig, params: Map<string, Float32Array>, tokenizer: Tokenizer | HfTokenizer, state: LearnerState;
  let optimizerState, hfConfig: Record<string, unknown> | undefined;
  let origin: LoadedLearnerModel['origin'];
  const own = await loadLearnerCheckpoint(stateDir, checkpointShapes);
  if (own) {
    ({ params, tokenizer, state } = own);
    model = own.model as unknown as DecoderConfig;
    optimizerState = own.optimizer;
    hfConfig = own.hfConfig;
    origin = 'resume';
  } else if (o.init.checkpoint !== undefined) {
    // The base checkpoint's optimizer moments belong to supervised training: RL starts with fresh ones.
    const ck = await loadModel(o.init.checkpoint);
    if (ck.codec === undefined) throw new LearnerStateError(`init.checkpoint ${o.init.checkpoint} has no tokenizer (a Hugging Face directory needs tokenizer.json)`, { origin: 'init-checkpoint' });
    model = ck.model;
    ({ params, codec: tokenizer, hfConfig } = ck);
    state = { ...FRESH_STATE, version: ck.policyVersion };
    origin = 'init-checkpoint';
  } else {
    model = o.model;
    params = initParameters(model, o.init.seed);
    tokenizer = loadTokenizer(o.init.tokenizer);
    state = { ...FRESH_STATE };
    origin = 'fresh';
  }
  const config = validateDecoderConfig(model);
  const misfit = weightsMisfit(params, config);
  if (misfit) throw new LearnerStateError(`${origin} weights: ${misfit.says('the model config needs shape')}`, { name: misfit.name, origin });
  const { klBeta, ...objective } = o.objective;
  const kl = klBeta > 0 ? { kl: { beta: klBeta, reference: await klReference(origin, params, config, o) } } : {};
  const trainerOptions = { ...objective, microBatchTokens: o.batching.microBatchTokens, microBatchCells: o.batching.microBatchCells, microBatchPassTokens: o.batching.microBatchPassTokens, twoPhase: o.batching.twoPhase, ...kl };
  const trainer = await placeTrainer({ config, params, optimizer: optimizerState ?? null, adamw: o.adamw, trainer: trainerOptions, threads }, o.host.ownThread);
  return { config, trainer, tokenizer, state, origin, ...(hfConfig !== undefined ? { hfConfig } : {}) };
}
