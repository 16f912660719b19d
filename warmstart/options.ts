// Options of the warm start: model shape, budget (steps and a wall-clock cap), batch size, learning rate, data mix,
// seed and output, with defaults and validation whose messages name the field.
import { DEFAULT_POLICY_MODEL } from '../model/index.js';
import { MAX_PARENT_TOKENS } from '../actors/designer/index.js';
import { repoPath } from '../runtime/paths.js';
import type { DocumentSourceKind } from './documents.js';
import { OptionsError, resolveOptions } from '../runtime/options.js';
import * as s from '../runtime/schema.js';

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
   * The designer learns to edit the library modules of at most this many tokens (0 = all) that have knobs: a parent
   * and its child both sit in the context, so the parent is bounded by about half of it.
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
  /** Oracle episodes played per library env (seeds 1..n), each without and with the hint. */
  episodesPerEnv?: number;
  /**
   * Seeds for the envs whose reset returns an instance hint (the small-model families): their oracles use the hint,
   * so these teach the agent to read hints, and many instances teach a policy rather than memorised answers.
   */
  hintEnvEpisodes?: number;
  /**
   * Oracle episodes (seeds 1..n, each without and with the hint) the agent also imitates on every validated child of
   * an instance-hint parent (0 = none): the designer's own edits (other names, constants, word lists and wording) as
   * agent data, so the agent meets the variety the loop's designer writes rather than one wording per family.
   */
  childEpisodes?: number;
  /**
   * Library modules (by name) whose other knob settings the agent also imitates (knob-settings.ts): each module with
   * its integer knobs at `settingsPerModule` other values (never a near-tier setting), played by its oracle on seeds
   * 1..settingEpisodes, each without and with the hint. The copy stage gives door-code and ticket-close their digit
   * widths this way, so the number the agent types is one it reads (docs/warm-start.md).
   */
  settingModules?: string[];
  settingsPerModule?: number;
  settingEpisodes?: number;
  /** A drawn knob stays within [value / settingSpread, value · settingSpread]. */
  settingSpread?: number;
  /**
   * Every oracle action typed after a space, as a word of running text (oracle-episodes.ts): a number the agent copies
   * then has the tokens the observation shows it in (" 4" "8" "2" "1", not "4" "8" "2" "1"). docs/warm-start.md.
   */
  spacedActions?: boolean;
  /**
   * Drill modules (env module files, not training families of the loop) whose oracle episodes join the agent data,
   * each played on seeds 1..drillEpisodes without and with the hint: `envs/drills/look-up.js` makes every turn a
   * number copied from the observation, `envs/drills/read-back.js` the whole answer a copy (docs/warm-start.md).
   */
  drills?: string[];
  drillEpisodes?: number;
  /** Validated children the designer learns per library parent (parent → child edits). */
  editsPerParent?: number;
  /**
   * The designer rows' format (the loop's designer.output): `module`, the whole child after the parent's code; or
   * `knobs`, the lines of the parent's knob sheet the child changes (its prose is then never reworded).
   */
  designerOutput?: 'module' | 'knobs';
  /** Share of children edited once more (grandchildren, with a child as the parent). */
  secondEdits?: number;
  /** Validation seeds for the children (the loop's designer.validationSeeds). */
  editValidationSeeds?: number;
  /** Agent prompt budget (agentPrompt's maxPromptTokens); the agent actor should use the same. */
  agentMaxPromptTokens?: number;
  documents?: DocumentSourceKind;
  /**
   * Continue from this checkpoint's weights instead of fresh ones ('' = fresh): a second stage of the recipe with its
   * own data mix and schedule (the optimizer starts anew; its shape must equal `model`).
   */
  initCheckpoint?: string;
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
  minutes: 45,
  batchTokens: 2048,
  lr: 2.5e-3,
  minLr: 2e-4,
  warmupSteps: 30,
  weightDecay: 0.01,
  seed: 1,
  agentFraction: 0.5,
  maxModuleTokens: MAX_PARENT_TOKENS,
  planBy: 'clock',
  replanEvery: 25,
  maxMemory: 3,
  episodesPerEnv: 8,
  hintEnvEpisodes: 400,
  childEpisodes: 0,
  settingModules: [],
  settingsPerModule: 0,
  settingEpisodes: 16,
  settingSpread: 4,
  spacedActions: false,
  drills: [],
  drillEpisodes: 1000,
  editsPerParent: 24,
  designerOutput: 'module',
  secondEdits: 0.5,
  editValidationSeeds: 8,
  agentMaxPromptTokens: 1024,
  documents: 'auto',
  initCheckpoint: '',
  outDir: repoPath('model', 'checkpoints', 'base'),
  saveOptimizer: false,
  saveEvery: 50,
  threads: 0,
  logEvery: 5,
};

const positive = s.int({ min: 1 });
const natural = s.int({ min: 0 });

/** The resolved form of WarmStartOptions; unknown keys are rejected. */
export const WARM_START_OPTIONS_SCHEMA: s.Check<ResolvedWarmStartOptions> = s.object(
  {
    model: s.object({ layers: positive, width: positive, heads: positive, kvHeads: positive, contextLength: positive }, { strict: true }),
    steps: positive,
    minutes: s.number({ min: 0 }),
    batchTokens: positive,
    lr: s.number({ gt: 0 }),
    minLr: s.number({ min: 0 }),
    warmupSteps: positive,
    weightDecay: s.number({ min: 0 }),
    seed: natural,
    agentFraction: s.number({ min: 0, max: 1 }),
    maxModuleTokens: natural,
    planBy: s.literal('steps', 'clock'),
    replanEvery: positive,
    maxMemory: natural,
    episodesPerEnv: positive,
    hintEnvEpisodes: natural,
    childEpisodes: natural,
    settingModules: s.array(s.string({ min: 1 })),
    settingsPerModule: natural,
    settingEpisodes: positive,
    settingSpread: s.number({ min: 1 }),
    spacedActions: s.boolean(),
    drills: s.array(s.string({ min: 1 })),
    drillEpisodes: positive,
    editsPerParent: positive,
    designerOutput: s.literal('module', 'knobs'),
    secondEdits: s.number({ min: 0, max: 1 }),
    editValidationSeeds: positive,
    agentMaxPromptTokens: positive,
    documents: s.literal('auto', 'corpus', 'stand-in'),
    initCheckpoint: s.string(),
    outDir: s.string({ min: 1 }),
    saveOptimizer: s.boolean(),
    saveEvery: natural,
    threads: natural,
    logEvery: positive,
  },
  { strict: true },
);

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`. */
export function validateWarmStartOptions(o: WarmStartOptions = {}, path = 'options'): ResolvedWarmStartOptions {
  const r = resolveOptions(WARM_START_OPTIONS_SCHEMA, DEFAULT_WARM_START_OPTIONS, o, path);
  if (r.planBy === 'clock' && !(r.minutes > 0)) throw new OptionsError(`${path}.minutes`, "a positive number when planBy is 'clock'", r.minutes);
  if (r.minLr > r.lr) throw new OptionsError(`${path}.minLr`, `a number in [0, lr=${r.lr}]`, r.minLr);
  return r;
}
