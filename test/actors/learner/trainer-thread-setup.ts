// What the trainer-thread tests share: the optimizer and objective options, rows of three hand-made trajectories, and
// a trainer thread of the tiny model started from given weights and optimizer state.
import { AdamW, initParameters, validateDecoderConfig, type AdamWState, type ModelSession } from '../../../model/index.js';
import { PolicyTrainer, trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { LocalTrainer, ThreadTrainer } from '../../../actors/learner/trainer-thread.js';
import { TINY, traj } from './tiny.js';

const ADAMW = { schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 };
const OPTIONS = { kind: 'behaviour' as const, clipEps: 0.2, tisCap: 2, epochs: 2, microBatchTokens: 16 };
const limits = { contextLength: 32, vocab: 272 };

/** Rows of three trajectories (one with its own behaviour log-probs) that make an update of a few micro-batches. */
export const rows = (): Row[] =>
  [traj('a', [50, 51, 52, 53, 54], 1.5, 0), traj('b', [60, 61], -0.5, 0), traj('c', [70, 71, 72], 0.25, 0, [-2, -4, -1])].flatMap((x) => trajectoryRows(x, limits));

/** A trainer thread of the tiny model from `params` (default: seed-1 weights) and `optimizer` state (null: fresh). */
export function startTrainerThread(params = initParameters(TINY, 1), optimizer: AdamWState | null = null): Promise<ThreadTrainer> {
  return ThreadTrainer.start({ config: validateDecoderConfig(TINY), params, optimizer, adamw: ADAMW, trainer: OPTIONS, threads: 1 });
}

/** The same trainer on the calling thread, over `session`, from `params`. */
export const localTrainer = (session: ModelSession, params: Map<string, Float32Array>): LocalTrainer =>
  new LocalTrainer(new PolicyTrainer(session, params, new AdamW(ADAMW), OPTIONS));
