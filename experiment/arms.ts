// The arms of the comparison: the full loop and its baseline and ablations, each a set of config overrides on the
// same base run. Every arm starts from the same base checkpoint and runs to the same policy-token budget.

export const ARM_NAMES = ['spade', 'fixed-envs', 'no-hint-regret', 'no-corpus', 'no-memory'] as const;
export type ArmName = (typeof ARM_NAMES)[number];

export interface ArmSpec {
  name: ArmName;
  /** What the arm measures (summary.md). */
  description: string;
  /** Config overrides of this arm (`--set PATH=VALUE`). */
  set: Record<string, unknown>;
  /** Run seeds when the experiment does not say: 2 for the two arms the headline compares, 1 for ablations. */
  defaultSeeds: number;
}

export const ARMS: Record<ArmName, ArmSpec> = {
  spade: { name: 'spade', description: 'full SPADE: designer, corpus, memory, hint regret', set: {}, defaultSeeds: 2 },
  'fixed-envs': { name: 'fixed-envs', description: 'fixed environments: the library only, no designer', set: { 'loop.ablations.fixedEnvs': true }, defaultSeeds: 2 },
  'no-hint-regret': { name: 'no-hint-regret', description: 'designer rewarded for validity only', set: { 'loop.ablations.noHintRegret': true }, defaultSeeds: 1 },
  'no-corpus': { name: 'no-corpus', description: 'empty grounding document', set: { 'loop.ablations.noCorpus': true }, defaultSeeds: 1 },
  'no-memory': { name: 'no-memory', description: 'no environment memory in the designer prompt', set: { 'loop.ablations.noMemory': true }, defaultSeeds: 1 },
};

export const isArmName = (s: string): s is ArmName => (ARM_NAMES as readonly string[]).includes(s);

/** The run directory name of one arm and run seed under the experiment directory. */
export const armRunName = (arm: ArmName, seed: number): string => `${arm}-s${seed}`;
