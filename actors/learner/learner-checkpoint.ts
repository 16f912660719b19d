// The learner's checkpoints: <stateDir>/ckpt-<updates>/ holds the model checkpoint (weights, optimizer, tokenizer)
// and learner.json (policy version, update count, accounting totals). A checkpoint is built in a temporary
// directory and renamed into place, then LATEST names it: a crash at any point leaves the previous one intact.
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncPath, writeDurably } from '../../model/index.js';
import { HfTokenizer, loadCheckpoint, saveCheckpoint, type AdamWState, type ShapeTable, type Tokenizer } from '../../model/index.js';
import { saveHfModel, validateDecoderConfig, type DecoderConfig } from '../../model/index.js';
import { isNonFiniteTensorError } from '../../model/index.js';
import { LearnerDivergedError, LearnerStateError } from './errors.js';

export interface LearnerState {
  /** The last published policy version. */
  version: number;
  /** Minibatch updates applied to these weights. */
  updates: number;
  /** Trajectories applied and dropped up to this checkpoint (totals, for the accounting check). */
  applied: number;
  dropped: number;
  /** Highest stream sequence of a message whose trajectories are all covered by this checkpoint. */
  lastStreamSeq: number;
  /**
   * The staleness accounting of the applied trajectories, restored exactly on resume (absent in checkpoints
   * written before it was kept: read as zero). Drop counts come from the accounting log instead, whose drop lines
   * are final even past the last checkpoint.
   */
  skipped?: number;
  trainedTokens?: number;
  stalenessMax?: number;
  /** Applied trajectories by staleness at update time: stalenessHistogram[lag]. */
  stalenessHistogram?: number[];
}

export interface LearnerCheckpoint {
  state: LearnerState;
  model: Record<string, unknown>;
  params: Map<string, Float32Array>;
  /** The project's tokenizer, or an imported model's Hugging Face one (its files go along). */
  tokenizer: Tokenizer | HfTokenizer;
  optimizer?: AdamWState;
  /** An imported model's Hugging Face config.json: kept in the checkpoint, written back by the export. */
  hfConfig?: Record<string, unknown>;
}

/**
 * Saves a checkpoint of `trained` (the trainer's weights and optimizer) with `c`. saveCheckpoint refuses NaN/Inf (a
 * checkpoint between publishes, publishEvery > 1, would otherwise keep them): that is the learner's divergence.
 */
export async function saveTrainedCheckpoint(stateDir: string, c: Omit<LearnerCheckpoint, 'params' | 'optimizer'> & { shapes: ShapeTable }, trained: { weights: Map<string, Float32Array>; optimizer: AdamWState }, keep: number, format: 'spade' | 'hf'): Promise<void> {
  try {
    await saveLearnerCheckpoint(stateDir, { ...c, params: trained.weights, optimizer: trained.optimizer }, keep, format);
  } catch (err) {
    if (isNonFiniteTensorError(err)) throw new LearnerDivergedError(`${/^[mv]\./.test(err.tensor) ? 'the optimizer moments' : 'the weights'} after update ${c.state.updates} (not checkpointed)`, { tensor: err.tensor, index: err.index, value: err.value }, err);
    throw err;
  }
}

const LATEST = 'LATEST';
const STATE_FILE = 'learner.json';
const dirName = (updates: number): string => `ckpt-${String(updates).padStart(8, '0')}`;

export async function saveLearnerCheckpoint(stateDir: string, c: LearnerCheckpoint & { shapes: ShapeTable }, keep: number, format: 'spade' | 'hf' = 'spade'): Promise<string> {
  await mkdir(stateDir, { recursive: true });
  const name = dirName(c.state.updates);
  const tmp = join(stateDir, `.tmp-${name}-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp);
  await saveCheckpoint(join(tmp, 'model'), {
    model: c.model, params: c.params, shapes: c.shapes, tokenizer: c.tokenizer, policyVersion: c.state.version,
    step: c.optimizer?.step ?? 0, optimizer: c.optimizer, hfConfig: c.hfConfig,
  });
  if (format === 'hf') {
    // The same weights for the tools researchers use; an imported model's tokenizer files go along as they came,
    // the project's tokenizer in its own format.
    const write = c.tokenizer instanceof HfTokenizer ? new Map(c.tokenizer.files) : new Map([['spade-tokenizer.json', JSON.stringify(c.tokenizer.toJSON())]]);
    await saveHfModel(join(tmp, 'hf'), { model: validateDecoderConfig(c.model as Partial<DecoderConfig>), params: c.params, hfConfig: c.hfConfig, write });
  }
  await writeDurably(join(tmp, STATE_FILE), JSON.stringify(c.state, null, 2) + '\n');
  await syncPath(tmp);
  await rm(join(stateDir, name), { recursive: true, force: true });
  await rename(tmp, join(stateDir, name));
  await writeFile(join(stateDir, `${LATEST}.tmp`), name + '\n');
  await syncPath(join(stateDir, `${LATEST}.tmp`));
  await rename(join(stateDir, `${LATEST}.tmp`), join(stateDir, LATEST));
  await syncPath(stateDir);
  const all = (await readdir(stateDir)).filter((n) => /^ckpt-\d+$/.test(n)).sort();
  for (const old of all.slice(0, Math.max(0, all.length - keep))) await rm(join(stateDir, old), { recursive: true, force: true });
  return join(stateDir, name);
}

/** The newest complete checkpoint under stateDir, or null when there is none. */
export async function loadLearnerCheckpoint(stateDir: string, shapes?: ShapeTable | ((model: Record<string, unknown>) => ShapeTable)): Promise<LearnerCheckpoint | null> {
  const latest = await readFile(join(stateDir, LATEST), 'utf8').catch(() => null);
  if (latest === null) return null;
  const name = latest.trim();
  // LATEST is read from disk: it may only name a checkpoint directory of this stateDir, never a path elsewhere.
  if (!/^ckpt-\d+$/.test(name)) throw new LearnerStateError(`${join(stateDir, LATEST)} names ${JSON.stringify(name.slice(0, 80))}, not a checkpoint directory (ckpt-<updates>)`, { stateDir, field: LATEST });
  const dir = join(stateDir, name);
  if (!(await stat(dir).catch(() => null))) throw new LearnerStateError(`${join(stateDir, LATEST)} names ${name}, which does not exist`, { stateDir });
  const file = join(dir, STATE_FILE);
  let state: LearnerState;
  try {
    state = JSON.parse(await readFile(file, 'utf8')) as LearnerState;
  } catch (err) {
    throw new LearnerStateError(`cannot read ${file}: ${(err as Error).message}`, { dir }, err);
  }
  if (state === null || typeof state !== 'object' || Array.isArray(state)) throw new LearnerStateError(`${file}: must be a JSON object`, { dir });
  for (const f of ['version', 'updates', 'applied', 'dropped', 'lastStreamSeq'] as const)
    if (!Number.isSafeInteger(state[f]) || state[f] < 0) throw new LearnerStateError(`${file}: ${f} must be an integer >= 0 (got ${JSON.stringify(state[f])})`, { dir, field: f });
  for (const f of ['skipped', 'trainedTokens', 'stalenessMax'] as const)
    if (state[f] !== undefined && (!Number.isSafeInteger(state[f]) || state[f]! < 0)) throw new LearnerStateError(`${file}: ${f} must be an integer >= 0 (got ${JSON.stringify(state[f])})`, { dir, field: f });
  const h = state.stalenessHistogram;
  if (h !== undefined && !(Array.isArray(h) && h.every((n) => n === null || (Number.isSafeInteger(n) && n >= 0)))) {
    throw new LearnerStateError(`${file}: stalenessHistogram must be a list of counts >= 0`, { dir, field: 'stalenessHistogram' });
  }
  if (name !== dirName(state.updates)) throw new LearnerStateError(`${file}: updates is ${state.updates}, but the directory is ${name}`, { dir, field: 'updates' });
  const ck = await loadCheckpoint(join(dir, 'model'), { shapes });
  // learner.json and the model's config.json are written together: when they disagree, one of them is not ours.
  if (ck.config.policyVersion !== state.version) {
    throw new LearnerStateError(`${file}: version is ${state.version}, but model/config.json says policyVersion ${ck.config.policyVersion}`, { dir, field: 'version' });
  }
  if (ck.optimizer !== undefined && ck.optimizer.step !== ck.config.step) {
    throw new LearnerStateError(`${join(dir, 'model', 'optimizer.json')}: step is ${ck.optimizer.step}, but model/config.json says step ${ck.config.step}`, { dir, field: 'step' });
  }
  return { state, model: ck.config.model, params: ck.params, tokenizer: ck.tokenizer, optimizer: ck.optimizer, ...(ck.config.hfConfig ? { hfConfig: ck.config.hfConfig } : {}) };
}
