// Whether a set of weights fits a model config: every parameter the config implies is there with its element count.
// The learner checks the weights it starts from and, with objective.klBeta, the reference it is held to.
import { parameterShapes, type ResolvedDecoderConfig } from '../../model/index.js';

/** The first parameter that does not fit, said for an error message; null when all fit. */
export function weightsMisfit(params: ReadonlyMap<string, Float32Array>, config: ResolvedDecoderConfig): { name: string; says: (needs: string) => string } | null {
  for (const [name, shape] of parameterShapes(config)) {
    const p = params.get(name);
    if (!p || p.length !== shape.reduce((a, b) => a * b, 1))
      return { name, says: (needs) => `parameter ${name} is ${p ? `${p.length} values` : 'missing'}, ${needs} [${shape}]` };
  }
  return null;
}
