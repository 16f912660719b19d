// The learner's options were one flat bag under loop.learner; they are nested by concern now (options.ts). This is the
// one table from each flat key of before to its nested path, and the rule config loading moves old keys by.

/**
 * The flat keys of before (`loop.learner.<key>`) and the nested path each moved to. Config files (a saved run's
 * config.json included) and `--set` still take them (loadConfig moves them: movedLearnerPath); options handed to
 * validateLearnerOptions in code do not: there a flat key fails naming its new path.
 */
export const LEARNER_FLAT_KEYS: Readonly<Record<string, string>> = {
  initCheckpoint: 'init.checkpoint', tokenizer: 'init.tokenizer', seed: 'init.seed',
  objective: 'objective.kind', clipEps: 'objective.clipEps', tisCap: 'objective.tisCap', sampleTemperature: 'objective.sampleTemperature',
  epochs: 'objective.epochs', roleWeights: 'objective.roleWeights',
  eta: 'batching.eta', skipZeroAdvantage: 'batching.skipZeroAdvantage', iterationBatches: 'batching.iterationBatches',
  minibatchTrajectories: 'batching.minibatchTrajectories', minibatchTokens: 'batching.minibatchTokens', flushAfterMs: 'batching.flushAfterMs',
  microBatchTokens: 'batching.microBatchTokens', microBatchCells: 'batching.microBatchCells',
  publishEvery: 'cadence.publishEvery', checkpointEvery: 'cadence.checkpointEvery', trainOnStop: 'cadence.trainOnStop',
  stateDir: 'checkpoints.dir', keepCheckpoints: 'checkpoints.keep', checkpointFormat: 'checkpoints.format',
  ownThread: 'host.ownThread', threads: 'host.threads', pullBatch: 'host.pullBatch', maxRestarts: 'host.maxRestarts', lockTtlMs: 'host.lockTtlMs',
  group: 'group.enabled', groupRoundTimeoutMs: 'group.roundTimeoutMs', groupKeepRounds: 'group.keepRounds', groupKeepRoundsMs: 'group.keepRoundsMs',
};

/** The flat keys that name a group now too, and the type of their old value: only such a value is the old key. */
const FLAT_GROUP_KEYS: Readonly<Record<string, 'string' | 'boolean'>> = { objective: 'string', group: 'boolean' };

/**
 * Where a path under loop.learner holding `value` moved to (its flat key replaced by the nested path, what is below it
 * kept: `roleWeights.agent` → `objective.roleWeights.agent`), or undefined when it did not move.
 */
export function movedLearnerPath(path: string, value: unknown): string | undefined {
  const [key = '', ...below] = path.split('.');
  const to = LEARNER_FLAT_KEYS[key];
  if (to === undefined) return undefined;
  const old = FLAT_GROUP_KEYS[key];
  if (old !== undefined) return below.length === 0 && typeof value === old ? to : undefined;
  return [to, ...below].join('.');
}
