// The reference policy of the learner's KL penalty (objective.klBeta): the weights the run started from, for the
// whole run. A restarted learner resumes from its own checkpoint, whose weights have moved, so the reference is read
// again from where the run began: the base checkpoint (init.checkpoint), or the fresh weights regenerated from their
// seed. The learner probe measured what this holds: without it the policy drifts off what the base had solved
// (docs/experiments/2026-12-05-probe-kl).
import { initParameters, loadModel, type ResolvedDecoderConfig } from '../../model/index.js';
import { LearnerStateError } from './errors.js';
import type { ResolvedLearnerOptions } from './options.js';
import { weightsMisfit } from './weights-fit.js';

/** Copies of the run's start weights. `start`: the weights just loaded, used as they are unless the learner resumed. */
export async function klReference(
  origin: 'resume' | 'init-checkpoint' | 'fresh',
  start: ReadonlyMap<string, Float32Array>,
  config: ResolvedDecoderConfig,
  o: Pick<ResolvedLearnerOptions, 'init'>,
): Promise<Map<string, Float32Array>> {
  let params: ReadonlyMap<string, Float32Array>;
  if (origin !== 'resume') params = start;
  else if (o.init.checkpoint !== undefined) params = (await loadModel(o.init.checkpoint)).params;
  else params = initParameters(config, o.init.seed);
  const misfit = weightsMisfit(params, config);
  if (misfit)
    throw new LearnerStateError(
      `objective.klBeta: the reference weights (${o.init.checkpoint ?? `fresh, seed ${o.init.seed}`}) do not fit the resumed model: ${misfit.says('the model needs shape')}`,
      { name: misfit.name, origin },
    );
  return new Map([...params].map(([n, w]) => [n, w.slice()]));
}
