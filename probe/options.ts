// The probe's options: what it trains on, how, for how long, and how it scores. Every field is checked, and a bad
// one names itself (`--minutes must be a positive number`).
import { ProbeOptionsError } from './errors.js';
import { validateBufferOptions, type BufferOptions } from './settings-buffer.js';

export interface ProbeOptions {
  /** Library modules (files) the probe trains from and is scored on at their shipped settings. */
  modules: string[];
  checkpoint: string;
  /** Wall-clock budget in minutes for the whole probe, scoring included; when set, `iterations` is only a cap. */
  minutes?: number;
  iterations: number;
  /** Episodes per arm and group. */
  k: number;
  lr: number;
  /** The agent's sampling temperature (the loop's: 0.3). */
  temperature: number;
  sampleTemperature: boolean;
  epochs: number;
  objective: 'behaviour' | 'decoupled';
  /** Train the hinted arm too (the loop's default), or unhinted episodes only. */
  hinted: boolean;
  /** `std`: GRPO advantages; `mean`: Dr. GRPO (no std division). */
  advantage: 'std' | 'mean';
  /** Weight β of the per-token KL penalty to the start weights (objective.ts klTerm); 0: none. */
  kl: number;
  /** `settings`: a curriculum over the modules' knob settings (settings-buffer.ts); `none`: the shipped modules only. */
  curriculum: 'settings' | 'none';
  /**
   * Under the curriculum, play every shipped module each iteration as well (the fixed pool, plus the buffer's picks):
   * the figure is taken on them, and a family's other settings may pull its shipped behaviour away.
   */
  anchor: boolean;
  /** Groups per update under the curriculum (anchors not counted), and how many of them are new children. */
  slots: number;
  children: number;
  /** A child's knobs stay within root / spread … root · spread. */
  spread: number;
  buffer: BufferOptions;
  /** Fresh seeds per module for the before/after score. */
  evalSeeds: number;
  /** onnxruntime threads of the sampler and the trainer (0: every core). */
  threads: number;
  /** Directory to save the final weights in (a checkpoint `spade eval` plays); absent: not saved. */
  save?: string;
  seed: number;
}

export const DEFAULT_PROBE_OPTIONS: Omit<ProbeOptions, 'modules' | 'checkpoint'> = {
  // lr 2e-4, anchors, 3 picks of which 1 new child: the best of the 60-update screen on the training modules
  // (docs/experiments/2026-12-04-probe-curriculum); the loop's own learner default is 1e-4.
  iterations: 40, k: 16, lr: 2e-4, temperature: 0.3, sampleTemperature: true, epochs: 1, objective: 'behaviour', hinted: true,
  advantage: 'std', kl: 0, curriculum: 'settings', anchor: true, slots: 3, children: 1, spread: 4, buffer: validateBufferOptions(), evalSeeds: 128, threads: 0, seed: 1,
};

const positiveInt = (field: string, v: number): void => {
  if (!Number.isInteger(v) || v < 1) throw new ProbeOptionsError(field, 'a positive integer', v);
};

export function validateProbeOptions(o: Partial<ProbeOptions> & Pick<ProbeOptions, 'modules' | 'checkpoint'>): ProbeOptions {
  const r: ProbeOptions = { ...DEFAULT_PROBE_OPTIONS, ...o, buffer: validateBufferOptions(o.buffer) };
  if (r.modules.length === 0) throw new ProbeOptionsError('--modules', 'at least one module file or directory', r.modules);
  if (r.minutes !== undefined && !(r.minutes > 0 && Number.isFinite(r.minutes))) throw new ProbeOptionsError('--minutes', 'a positive number', r.minutes);
  positiveInt('--iterations', r.iterations);
  positiveInt('--k', r.k);
  positiveInt('--epochs', r.epochs);
  positiveInt('--slots', r.slots);
  positiveInt('--eval-seeds', r.evalSeeds);
  if (!Number.isInteger(r.children) || r.children < 0 || r.children > r.slots) throw new ProbeOptionsError('--children', `an integer in 0..--slots (${r.slots})`, r.children);
  if (!(r.lr > 0 && r.lr < 1)) throw new ProbeOptionsError('--lr', 'a number in (0, 1)', r.lr);
  if (!(r.temperature > 0 && r.temperature <= 2)) throw new ProbeOptionsError('--temperature', 'a number in (0, 2]', r.temperature);
  if (!(r.kl >= 0 && Number.isFinite(r.kl))) throw new ProbeOptionsError('--kl', 'a number >= 0', r.kl);
  if (!(r.spread >= 1 && Number.isFinite(r.spread))) throw new ProbeOptionsError('--spread', 'a number >= 1', r.spread);
  if (!Number.isInteger(r.threads) || r.threads < 0) throw new ProbeOptionsError('--threads', 'an integer >= 0 (0: every core)', r.threads);
  if (!Number.isSafeInteger(r.seed)) throw new ProbeOptionsError('--seed', 'an integer', r.seed);
  if (!['behaviour', 'decoupled'].includes(r.objective)) throw new ProbeOptionsError('--objective', "'behaviour' or 'decoupled'", r.objective);
  if (!['std', 'mean'].includes(r.advantage)) throw new ProbeOptionsError('--advantage', "'std' or 'mean'", r.advantage);
  if (!['settings', 'none'].includes(r.curriculum)) throw new ProbeOptionsError('--curriculum', "'settings' or 'none'", r.curriculum);
  return r;
}
