// Learning-rate schedule: linear warmup to the peak, then cosine decay to a floor, then the floor.
import { ModelOptionError } from './errors.js';

export interface LrScheduleOptions {
  /** Peak learning rate, reached at the end of warmup. */
  peakLr?: number;
  /** Updates spent ramping linearly from peakLr/warmupSteps up to peakLr. 0 starts at the peak. */
  warmupSteps?: number;
  /** Update index where the cosine reaches the floor; later updates stay at the floor. */
  decaySteps?: number;
  /** The floor, as a learning rate (not a fraction of the peak). */
  minLr?: number;
}

export const DEFAULT_LR_SCHEDULE_OPTIONS: Required<LrScheduleOptions> = {
  peakLr: 3e-4,
  warmupSteps: 100,
  decaySteps: 10_000,
  minLr: 3e-5,
};

export function validateLrScheduleOptions(options: LrScheduleOptions = {}): Required<LrScheduleOptions> {
  const o = { ...DEFAULT_LR_SCHEDULE_OPTIONS, ...options };
  if (!(Number.isFinite(o.peakLr) && o.peakLr >= 0)) throw new ModelOptionError('peakLr', 'a finite number >= 0', o.peakLr);
  if (!(Number.isFinite(o.minLr) && o.minLr >= 0 && o.minLr <= o.peakLr)) {
    throw new ModelOptionError('minLr', `a finite number in [0, peakLr=${o.peakLr}]`, o.minLr);
  }
  if (!(Number.isInteger(o.warmupSteps) && o.warmupSteps >= 0)) throw new ModelOptionError('warmupSteps', 'an integer >= 0', o.warmupSteps);
  if (!(Number.isInteger(o.decaySteps) && o.decaySteps >= o.warmupSteps)) {
    throw new ModelOptionError('decaySteps', `an integer >= warmupSteps=${o.warmupSteps}`, o.decaySteps);
  }
  return o;
}

/** Returns lr(step), where step counts updates already applied (0 for the first update). */
export function lrSchedule(options: LrScheduleOptions = {}): (step: number) => number {
  const { peakLr, warmupSteps, decaySteps, minLr } = validateLrScheduleOptions(options);
  return (step: number): number => {
    if (step < warmupSteps) return (peakLr * (step + 1)) / warmupSteps;
    if (step >= decaySteps) return minLr;
    const progress = (step - warmupSteps) / (decaySteps - warmupSteps); // in [0, 1)
    return minLr + 0.5 * (peakLr - minLr) * (1 + Math.cos(Math.PI * progress));
  };
}
