// AdamW over named Float32Array parameters, matching PyTorch's AdamW: decoupled weight decay
// (skipped for norms and biases), bias correction, global-norm clipping, a scheduled learning rate.
// The arithmetic runs in float32 in a WebAssembly SIMD kernel (adamw-kernel.ts), as PyTorch's does in float32.
import { AdamWKernel } from './adamw-kernel.js';
import { ModelOptionError, OptimizerError } from './errors.js';
import { lrSchedule, type LrScheduleOptions } from './lr-schedule.js';

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
  /** Clip the global L2 norm of all gradients to this; Infinity turns clipping off. */
  maxGradNorm?: number;
  /** Which parameters get weight decay. Default: all but norms and biases. */
  decay?: (name: string) => boolean;
  schedule?: LrScheduleOptions;
}

/** Norm gains and biases hold scales and offsets, not weights to shrink: decaying them only hurts. */
export const decayAllButNormsAndBiases = (name: string): boolean => !/norm|bias/i.test(name);

export const DEFAULT_ADAMW_OPTIONS = {
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-8,
  weightDecay: 0.1,
  maxGradNorm: 1.0,
  decay: decayAllButNormsAndBiases,
  schedule: {} as LrScheduleOptions,
};

export type ResolvedAdamWOptions = typeof DEFAULT_ADAMW_OPTIONS;

export function validateAdamWOptions(options: AdamWOptions = {}): ResolvedAdamWOptions {
  const o = { ...DEFAULT_ADAMW_OPTIONS, ...options };
  const unit = (f: 'beta1' | 'beta2'): void => {
    if (!(o[f] >= 0 && o[f] < 1)) throw new ModelOptionError(f, 'a number in [0, 1)', o[f]);
  };
  unit('beta1');
  unit('beta2');
  if (!(Number.isFinite(o.eps) && o.eps > 0)) throw new ModelOptionError('eps', 'a finite number > 0', o.eps);
  if (!(Number.isFinite(o.weightDecay) && o.weightDecay >= 0)) throw new ModelOptionError('weightDecay', 'a finite number >= 0', o.weightDecay);
  if (!(o.maxGradNorm > 0)) throw new ModelOptionError('maxGradNorm', 'a number > 0 (Infinity: no clipping)', o.maxGradNorm);
  if (typeof o.decay !== 'function') throw new ModelOptionError('decay', 'a function (name) => boolean', o.decay);
  lrSchedule(o.schedule); // validates the schedule options
  return o;
}

/** Everything needed to continue training identically: the update count and both moments per parameter. */
export interface AdamWState {
  step: number;
  m: Map<string, Float32Array>;
  v: Map<string, Float32Array>;
}

export interface AdamWStepResult {
  /** Updates applied so far, this one included. */
  step: number;
  lr: number;
  /** Global L2 norm of the gradients before clipping. */
  gradNorm: number;
  /** The factor the gradients were scaled by (1 when not clipped). */
  clipScale: number;
}

export class AdamW {
  readonly options: ResolvedAdamWOptions;
  private readonly lrAt: (step: number) => number;
  private state: AdamWState = { step: 0, m: new Map(), v: new Map() };
  private readonly kernel = new AdamWKernel();

  constructor(options: AdamWOptions = {}) {
    this.options = validateAdamWOptions(options);
    this.lrAt = lrSchedule(this.options.schedule);
  }

  get step(): number {
    return this.state.step;
  }

  /**
   * Updates params in place from grads. Every parameter needs a gradient of its size. Parameters
   * are visited in sorted name order, so the result does not depend on map insertion order.
   */
  update(params: Map<string, Float32Array>, grads: ReadonlyMap<string, Float32Array>): AdamWStepResult {
    const names = [...params.keys()].sort();
    let sq = 0;
    for (const name of names) {
      const p = params.get(name)!;
      const g = grads.get(name);
      if (g === undefined) throw new OptimizerError(`no gradient for parameter "${name}"`, { code: 'OPTIMIZER_GRAD_MISSING', data: { name } });
      if (g.length !== p.length) {
        throw new OptimizerError(`gradient of "${name}" has ${g.length} elements, the parameter ${p.length}`, {
          code: 'OPTIMIZER_GRAD_SIZE',
          data: { name, grad: g.length, param: p.length },
        });
      }
      sq += this.kernel.sumOfSquares(g);
    }
    const gradNorm = Math.sqrt(sq);
    if (!Number.isFinite(gradNorm)) {
      throw new OptimizerError(`gradient norm is ${gradNorm}: refusing to update`, { code: 'OPTIMIZER_NONFINITE', data: { gradNorm } });
    }
    const { beta1, beta2, eps, weightDecay, maxGradNorm, decay } = this.options;
    const clipScale = gradNorm > maxGradNorm ? maxGradNorm / (gradNorm + 1e-6) : 1;
    const lr = this.lrAt(this.state.step);
    const t = ++this.state.step;
    const stepSize = lr / (1 - beta1 ** t);
    const invBiasCorrection2Sqrt = 1 / Math.sqrt(1 - beta2 ** t);
    for (const name of names) {
      const p = params.get(name)!;
      const g = grads.get(name)!;
      let m = this.state.m.get(name);
      let v = this.state.v.get(name);
      if (m === undefined || v === undefined) {
        m = new Float32Array(p.length);
        v = new Float32Array(p.length);
        this.state.m.set(name, m);
        this.state.v.set(name, v);
      } else if (m.length !== p.length) {
        throw new OptimizerError(`optimizer state for "${name}" has ${m.length} elements, the parameter ${p.length}`, {
          code: 'OPTIMIZER_STATE',
          data: { name },
        });
      }
      const shrink = decay(name) ? 1 - lr * weightDecay : 1;
      this.kernel.update(p, g, m, v, { clipScale, beta1, beta2, shrink, stepSize, invBiasCorrection2Sqrt, eps });
    }
    return { step: t, lr, gradNorm, clipScale };
  }

  /** A deep copy of the state (for checkpoints). */
  exportState(): AdamWState {
    const copy = (src: Map<string, Float32Array>): Map<string, Float32Array> => new Map([...src].map(([k, a]) => [k, a.slice()]));
    return { step: this.state.step, m: copy(this.state.m), v: copy(this.state.v) };
  }

  /** Replaces the state with a copy of `state`; m and v must name the same parameters with equal sizes. */
  loadState(state: AdamWState): void {
    if (!(Number.isInteger(state.step) && state.step >= 0)) {
      throw new OptimizerError(`optimizer state step must be an integer >= 0 (got ${state.step})`, { code: 'OPTIMIZER_STATE' });
    }
    for (const [name, m] of state.m) {
      const v = state.v.get(name);
      if (v === undefined || v.length !== m.length) {
        throw new OptimizerError(`optimizer state for "${name}" has m but no v of the same size`, { code: 'OPTIMIZER_STATE', data: { name } });
      }
    }
    if (state.v.size !== state.m.size) throw new OptimizerError('optimizer state has v entries without m', { code: 'OPTIMIZER_STATE' });
    const copy = (src: Map<string, Float32Array>): Map<string, Float32Array> => new Map([...src].map(([k, a]) => [k, a.slice()]));
    this.state = { step: state.step, m: copy(state.m), v: copy(state.v) };
  }
}
