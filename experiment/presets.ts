// Experiment configurations: the typed options, the presets, and their validation (errors name the field).
//
// `smoke` exercises every part (two arms, a learning-curve point, held-out evaluation on one environment per family)
// in a few minutes on a 2-core machine: its figures mean nothing. `default` is the reference comparison: 7 runs at
// 150k policy tokens each, eval on the whole held-out suite × 4 seeds (the final checkpoints with and without the hint,
// the curve points without). Rates measured on v3 of the base checkpoint (2026-12-02, machine otherwise idle): a
// designing arm spends about 465 policy tokens/s, the fixed baseline on envs/library about 245 (longer episodes), and
// an evaluation of one checkpoint on 30 modules × 2 seeds takes about 5 s without the hint; so about 6 minutes per
// designing run, 10 per fixed run, an hour in all. (The first sizing, 60k tokens, was set from rates of v1 of the
// base checkpoint — 250 and 30 tokens/s — and ended in 25 minutes with 18–33 learner updates a run.)
import { OptionsError } from '../runtime/options.js';
import { ARMS, ARM_NAMES, isArmName, type ArmName } from './arms.js';

export interface ExperimentEvalOptions {
  /** Held-out suite directory. */
  suite: string;
  /** Only these module paths of the suite (relative to it); empty = all of it. */
  files: string[];
  /** Seeds per environment and arm (the same for every checkpoint: the comparisons are seed-paired). */
  seeds: number;
  firstSeed: number;
  /** Play the hinted arm too (the final checkpoints; curve points are played without the hint only). */
  hint: boolean;
  /** Bootstrap replicates. */
  resamples: number;
  /** Validation seeds of the suite's modules (loop.designer.validationSeeds). */
  validationSeeds: number;
  /**
   * A second suite played by the base and every final checkpoint (no curve points), on its own seed count from the
   * same first seed: envs/heldout-near in the default preset, whose figures are reported beside the main suite's
   * (results.json `near`); null = none.
   */
  near: { suite: string; seeds: number } | null;
}

export interface ExperimentConfig {
  /** The preset it came from (recorded in results.json). */
  preset: string;
  /** Policy tokens (sampled by both roles + trained) of every arm run; 0 when the budget is in agent episodes. */
  budgetTokens: number;
  /**
   * Agent episodes (hinted included) of every arm run: arms compared at equal agent experience, their policy tokens
   * and wall-clock reported beside. 0 or absent: the budget is in policy tokens. A config has one of the two.
   */
  budgetEpisodes?: number;
  arms: ArmName[];
  /** Run seeds per arm; an arm not named takes its default (arms.ts: 2 for spade and fixed-envs, 1 for ablations). */
  seeds: Partial<Record<ArmName, number>>;
  /** The checkpoint every arm starts from (and that is evaluated once as the reference). */
  baseCheckpoint: string;
  /** Learning-curve points per run: held-out return at budget fractions 1/n .. n/n (the last is the final checkpoint). */
  curvePoints: number;
  /** Config overrides every arm run gets (`--set PATH=VALUE`), before the arm's own. */
  set: Record<string, unknown>;
  eval: ExperimentEvalOptions;
  /** Keep each finished run's nats/ store (default false: it is deleted once the run's figures are read). */
  keepStores?: boolean;
}

// Smoke: iterations cheap in tokens, so both arms end within a few percent of the budget in a minute or two. The
// designer's modules are cut at 160 tokens (all rejected at parse: the arm still spends designer tokens and trains
// on the penalty), and the fixed baseline plays test/fixtures/loop-library, whose returns vary even for the base policy.
const SMOKE_LOOP = {
  'run.designsPerIteration': 2,
  'run.maxStaleness': 1,
  'loop.k': 4,
  'loop.agent.maxTurns': 3,
  'loop.agent.maxTokens': 16,
  'loop.agent.maxPromptTokens': 384,
  'loop.designer.maxTokens': 160,
  'loop.designer.validationSeeds': 2,
  'loop.library': 'test/fixtures/loop-library',
  'loop.learner.batching.microBatchTokens': 2048,
  'loop.learner.cadence.checkpointEvery': 5,
};

/** The five small library families the near suite (envs/heldout-near) holds unseen settings of. */
export const NEAR_FAMILIES = ['door-code', 'max-pick', 'ticket-close', 'step-to-mark', 'window-search'];

export const PRESETS: Record<string, ExperimentConfig> = {
  smoke: {
    preset: 'smoke', budgetTokens: 6_000, arms: ['spade', 'fixed-envs'], seeds: { spade: 1, 'fixed-envs': 1 },
    baseCheckpoint: 'model/checkpoints/base', curvePoints: 2, set: SMOKE_LOOP,
    eval: { suite: 'envs/heldout', files: ['games/walk-line.js', 'reasoning/add-two.js', 'tools/copy-call.js'], seeds: 2, firstSeed: 1001, hint: true, resamples: 500, validationSeeds: 2, near: null },
  },
  default: {
    preset: 'default', budgetTokens: 150_000, arms: [...ARM_NAMES], seeds: {},
    // Two designs an iteration (the loop's default is 4): an iteration of a designing arm costs about 5k tokens, so
    // runs end within about 2% of the budget of each other.
    baseCheckpoint: 'model/checkpoints/base', curvePoints: 4, set: { 'run.designsPerIteration': 2, 'loop.learner.batching.microBatchTokens': 2048, 'loop.learner.cadence.checkpointEvery': 2 },
    eval: { suite: 'envs/heldout', files: [], seeds: 4, firstSeed: 1001, hint: true, resamples: 2000, validationSeeds: 8, near: { suite: 'envs/heldout-near', seeds: 16 } },
  },
  // Reference experiment v2 (issue 23): does training on designed environments carry over to unseen settings of the
  // trained families better than the fixed pool? Both arms use the five families the near suite varies
  // (loop.modules), every run stops at the same agent episodes, and the loop is otherwise at its defaults (replays
  // included). Rates on this machine (2026-12-04, quiet): the spade arm plays 8–10 agent episodes a second, the
  // fixed pool of these five about 27, so a spade run takes 34–41 minutes and a fixed one about 13; 3 + 3 + 3
  // ablations is about 4 hours of runs plus evaluation, continued across sessions with --out.
  reference: {
    preset: 'reference', budgetTokens: 0, budgetEpisodes: 20_000, arms: [...ARM_NAMES], seeds: { spade: 3, 'fixed-envs': 3 },
    baseCheckpoint: 'model/checkpoints/base', curvePoints: 2, set: { 'loop.modules': NEAR_FAMILIES },
    eval: { suite: 'envs/heldout', files: [], seeds: 4, firstSeed: 1001, hint: true, resamples: 2000, validationSeeds: 8, near: { suite: 'envs/heldout-near', seeds: 32 } },
  },
  // Reference experiment v3 (issue 23): v2 with designs written as knob edits (loop.designer.output 'knobs', docs/loop.md
  // "Knob edits"), so the designer's tokens go to the agent and every child moves a setting. Every arm starts from
  // the base warm-started on that format (model/checkpoints/base-knobs, docs/warm-start.md "Knob edits"), the fixed
  // pool included, so the arms still differ only in what they train on.
  'reference-knobs': {
    preset: 'reference-knobs', budgetTokens: 0, budgetEpisodes: 20_000, arms: [...ARM_NAMES], seeds: { spade: 3, 'fixed-envs': 3 },
    baseCheckpoint: 'model/checkpoints/base-knobs', curvePoints: 2, set: { 'loop.modules': NEAR_FAMILIES, 'loop.designer.output': 'knobs' },
    eval: { suite: 'envs/heldout', files: [], seeds: 4, firstSeed: 1001, hint: true, resamples: 2000, validationSeeds: 8, near: { suite: 'envs/heldout-near', seeds: 32 } },
  },
};
// v3 with the learner's KL term to the base (β 0.1, the learner probe's best lever: docs/experiments/2026-12-05-probe-kl).
PRESETS['reference-knobs-kl'] = {
  ...PRESETS['reference-knobs']!, preset: 'reference-knobs-kl',
  set: { ...PRESETS['reference-knobs']!.set, 'loop.learner.objective.klBeta': 0.1 },
};

export type ExperimentConfigInput = Partial<Omit<ExperimentConfig, 'eval'>> & { eval?: Partial<ExperimentEvalOptions> };

const posInt = (path: string, v: unknown, min = 1): number => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new OptionsError(path, `an integer ≥ ${min}`, v);
  return v;
};
const str = (path: string, v: unknown): string => {
  if (typeof v !== 'string' || v === '') throw new OptionsError(path, 'a non-empty string', v);
  return v;
};

/** A preset with overrides on top (a config file's fields, then the command line's), validated. */
export function resolveExperimentConfig(base: string, over: ExperimentConfigInput = {}): ExperimentConfig {
  const preset = PRESETS[base];
  if (!preset) throw new OptionsError('preset', `one of ${Object.keys(PRESETS).join(', ')}`, base);
  const known = new Set(['preset', 'budgetTokens', 'budgetEpisodes', 'arms', 'seeds', 'baseCheckpoint', 'curvePoints', 'set', 'eval', 'keepStores']);
  for (const k of Object.keys(over)) if (!known.has(k)) throw new OptionsError(`experiment.${k}`, `one of ${[...known].join(', ')}`, k);
  const evalKeys = new Set(Object.keys(preset.eval));
  for (const k of Object.keys(over.eval ?? {})) if (!evalKeys.has(k)) throw new OptionsError(`experiment.eval.${k}`, `one of ${[...evalKeys].join(', ')}`, k);
  return validateExperimentConfig({ ...preset, ...over, preset: over.preset ?? base, set: { ...preset.set, ...over.set }, eval: { ...preset.eval, ...over.eval } });
}

/** Checks a whole configuration (a resolved one, or one saved in an experiment directory); returns it. */
export function validateExperimentConfig(c: ExperimentConfig): ExperimentConfig {
  for (const k of Object.keys(PRESETS.default!.eval)) if (!(k in (c.eval ?? {}))) throw new OptionsError(`experiment.eval.${k}`, 'present', undefined);
  const episodes = c.budgetEpisodes ?? 0;
  posInt('experiment.budgetTokens', c.budgetTokens, episodes > 0 ? 0 : 1);
  posInt('experiment.budgetEpisodes', episodes, 0);
  if (episodes > 0 && c.budgetTokens > 0) throw new OptionsError('experiment.budgetTokens', '0 when budgetEpisodes is set (an experiment has one budget)', c.budgetTokens);
  if (!Array.isArray(c.arms) || c.arms.length === 0) throw new OptionsError('experiment.arms', `a non-empty list of ${ARM_NAMES.join(', ')}`, c.arms);
  c.arms.forEach((a, i) => { if (!isArmName(a)) throw new OptionsError(`experiment.arms[${i}]`, `one of ${ARM_NAMES.join(', ')}`, a); });
  if (new Set(c.arms).size !== c.arms.length) throw new OptionsError('experiment.arms', 'arms named once each', c.arms);
  if (typeof c.seeds !== 'object' || c.seeds === null) throw new OptionsError('experiment.seeds', 'an object of arm → run seeds', c.seeds);
  for (const [a, n] of Object.entries(c.seeds)) {
    if (!isArmName(a)) throw new OptionsError(`experiment.seeds.${a}`, `an arm (${ARM_NAMES.join(', ')})`, a);
    posInt(`experiment.seeds.${a}`, n);
  }
  str('experiment.baseCheckpoint', c.baseCheckpoint);
  posInt('experiment.curvePoints', c.curvePoints);
  if (typeof c.set !== 'object' || c.set === null || Array.isArray(c.set)) throw new OptionsError('experiment.set', 'an object of config path → value', c.set);
  for (const k of ['run.budgetTokens', 'run.budgetEpisodes', 'run.curvePoints', 'run.dir', 'run.seed', 'loop.policy.checkpoint'])
    if (k in c.set) throw new OptionsError(`experiment.set.${k}`, 'left to the experiment (it sets it per arm run)', c.set[k]);
  if (c.keepStores !== undefined && typeof c.keepStores !== 'boolean') throw new OptionsError('experiment.keepStores', 'true or false', c.keepStores);
  str('experiment.eval.suite', c.eval.suite);
  if (!Array.isArray(c.eval.files) || c.eval.files.some((f) => typeof f !== 'string')) throw new OptionsError('experiment.eval.files', 'a list of module paths', c.eval.files);
  posInt('experiment.eval.seeds', c.eval.seeds);
  posInt('experiment.eval.firstSeed', c.eval.firstSeed, 0);
  if (typeof c.eval.hint !== 'boolean') throw new OptionsError('experiment.eval.hint', 'true or false', c.eval.hint);
  posInt('experiment.eval.resamples', c.eval.resamples);
  posInt('experiment.eval.validationSeeds', c.eval.validationSeeds);
  const near = c.eval.near;
  if (near !== null) {
    if (typeof near !== 'object' || Array.isArray(near)) throw new OptionsError('experiment.eval.near', 'null or { suite, seeds }', near);
    for (const k of Object.keys(near)) if (k !== 'suite' && k !== 'seeds') throw new OptionsError(`experiment.eval.near.${k}`, 'one of suite, seeds', k);
    str('experiment.eval.near.suite', near.suite);
    posInt('experiment.eval.near.seeds', near.seeds);
  }
  return c;
}

/** The budget of every arm run, in words (logs and summary.md). */
export function budgetWords(c: Pick<ExperimentConfig, 'budgetTokens' | 'budgetEpisodes'>): string {
  return (c.budgetEpisodes ?? 0) > 0 ? `${c.budgetEpisodes} agent episodes` : `${c.budgetTokens} policy tokens`;
}

/** Run seeds of an arm under this config. */
export const seedsOf = (c: ExperimentConfig, arm: ArmName): number => c.seeds[arm] ?? ARMS[arm].defaultSeeds;
