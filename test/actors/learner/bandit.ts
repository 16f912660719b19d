// The one-step bandit of the policy-gradient tests: after PROMPT the policy samples one token, rewarded when it is in
// the lower half of the vocabulary; advantages are the evaluator's groupNormalise of a round's rewards.
import type { Test } from 'tap';
import { groupNormalise } from '../../../actors/evaluator/score.js';
import { PolicyTrainer, type Row } from '../../../actors/learner/index.js';
import type { ObjectiveKind } from '../../../actors/learner/objective.js';
import { AdamW, ModelSession, Sampler, initParameters, type SampleOutput } from '../../../model/index.js';
import { TINY } from './tiny.js';

const PROMPT = [1, 2, 3];
const rewarded = (token: number) => (token < 136 ? 1 : 0);

type Weights = Map<string, Float32Array>;
const copy = (w: Weights): Weights => new Map([...w].map(([k, v]) => [k, v.slice()]));

/**
 * The tiny model from seed-9 weights, a trainer of `kind` on them (AdamW at a constant 1e-2) and a sampler. The
 * sampler runs the trainer's weights themselves (on-policy), or with `samplerOnACopy` a copy that the test moves on.
 */
export async function bandit(t: Test, kind: ObjectiveKind, opts: { samplerOnACopy?: boolean } = {}) {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'sample'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = initParameters(TINY, 9);
  const sampler = new Sampler(session, opts.samplerOnACopy ? copy(weights) : weights, 0, null, { seed: 4 });
  t.teardown(() => sampler.close());
  const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 100, minLr: 1e-2 }, weightDecay: 0 });
  const trainer = new PolicyTrainer(session, weights, opt, { kind, clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096 });
  /** `n` one-token samples after PROMPT at temperature 1. */
  const round = async (n: number): Promise<SampleOutput[]> =>
    Promise.all(Array.from({ length: n }, () => sampler.generate({ prompt: PROMPT, temperature: 1, maxTokens: 1 })));
  return { weights, sampler, trainer, round, snapshot: () => copy(weights) };
}

/** The share of rewarded samples. */
export const rewardedShare = (outs: SampleOutput[]): number => outs.filter((o) => rewarded(o.tokens[0]!)).length / outs.length;

/** The training rows of round `step`: one per sample, its advantage the group-normalised reward. */
export function banditRows(step: number, outs: SampleOutput[]): Row[] {
  const adv = groupNormalise(outs.map((o) => rewarded(o.tokens[0]!)), 1e-6);
  return outs.map((o, i) => ({ trajId: `s${step}-${i}`, tokens: [...PROMPT, o.tokens[0]!], positions: [PROMPT.length], behaviour: Float32Array.of(o.logprobs[0]!), advantage: adv[i]! }));
}
