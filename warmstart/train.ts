// The warm-start trainer: builds the data (validated parent → child edits of library modules for the designer,
// sandbox-confirmed oracle episodes with and without the hint for the agent), trains a fresh decoder (or the --init
// model: a checkpoint, or a Hugging Face directory with its own tokenizer) with AdamW on masked completion NLL, prints
// progress and saves the checkpoint.
import { AdamW, ModelSession, initParameters, loadModel, loadTokenizer, packBatch, parameterShapes, saveCheckpoint, validateDecoderConfig, type LoadedModel, type ResolvedDecoderConfig } from '../model/index.js';
import { SandboxPool, makeRandom } from '../sandbox/index.js';
import { WarmStartData } from './data-stream.js';
import { openDocuments } from './documents.js';
import type { Role } from './examples.js';
import { drillEnv, libraryEnvOf, loadLibrary, vmEnv, type LibraryEnv } from './library.js';
import { oracleEpisodes, type OracleEpisodeStats } from './oracle-episodes.js';
import { designerEdits, type EditPlan, type EditStats } from './edits.js';
import { NEAR_TIER_SETTINGS } from './reserved.js';
import { knobSettings, type KnobSettings } from './knob-settings.js';
import { intKnobsOf, isEditable } from '../actors/designer/index.js';
import { OptionsError } from '../runtime/options.js';
import { repoPath } from '../runtime/paths.js';
import { validateWarmStartOptions, type ResolvedWarmStartOptions, type WarmStartOptions } from './options.js';

export interface LossPoint {
  step: number;
  /** Mean NLL per completion token since the previous point (null: no step of that role). */
  designer: number | null;
  agent: number | null;
}

export interface WarmStartSummary {
  options: ResolvedWarmStartOptions;
  config: ResolvedDecoderConfig;
  params: number;
  steps: number;
  /** Library modules the designer was trained to edit (the roots of its parent → child examples). */
  designerEnvs: string[];
  edits: EditStats & { examples: number };
  /** True when the wall-clock cap ended training before the planned steps. */
  stoppedByClock: boolean;
  seconds: number;
  dataSeconds: number;
  /** Real (unpadded) tokens through the training graph, and per second of training. */
  tokens: number;
  tokensPerSec: number;
  paddedTokensPerSec: number;
  curve: LossPoint[];
  documents: { kind: string; size: number };
  library: number;
  episodes: OracleEpisodeStats;
  /** Oracle episodes on the validated children (childEpisodes > 0), else null. */
  childEpisodes: OracleEpisodeStats | null;
  /** The other knob settings the agent imitated (settingsPerModule > 0), and their oracle episodes; else null. */
  settings: { modules: string[]; settings: number; reserved: number; episodes: OracleEpisodeStats } | null;
  /** The drill modules the agent imitated (options.drills), and their oracle episodes; else null. */
  drills: { modules: string[]; episodes: OracleEpisodeStats } | null;
  droppedRows: number;
}

const fmt = (x: number | null): string => (x === null ? '  -  ' : x.toFixed(3));

/** A checkpoint's weights for a second stage: its model must be the one this run trains. */
function initialWeights(init: LoadedModel, config: ResolvedDecoderConfig): Map<string, Float32Array> {
  const mine = JSON.stringify(config), theirs = JSON.stringify(init.model);
  if (mine !== theirs) throw new OptionsError('options.initCheckpoint', `a checkpoint of the model ${mine}`, theirs);
  return init.params;
}

/**
 * The init directory, when there is one. An imported model (a Hugging Face directory, or a checkpoint of one, which
 * carries its tokenizer) is the model trained: its shape, weights, tokenizer and chat template, and its config.json
 * goes into the saved checkpoint so an export writes it back.
 */
async function initModel(dir: string): Promise<{ init: LoadedModel; imported: boolean } | undefined> {
  if (dir === '') return undefined;
  const init = await loadModel(dir);
  if (init.codec === undefined) throw new OptionsError('options.initCheckpoint', 'a Hugging Face directory with tokenizer.json', dir);
  return { init, imported: init.spadeTokenizer === undefined };
}

/**
 * The designer's parents (library modules with knobs, of at most maxModuleTokens tokens) and the edit plan a run with
 * options `o` uses: its data's knob-edited modules are `designerEdits(pool, parents, documents, plan)`, which the tests
 * regenerate through this function rather than a copy of it.
 */
export function designerEditInputs(o: ResolvedWarmStartOptions, library: readonly LibraryEnv[], tok: { encode(text: string): number[] }): { parents: LibraryEnv[]; plan: EditPlan } {
  const parents = library.filter((e) => isEditable(e.code) && (o.maxModuleTokens === 0 || tok.encode(e.code).length <= o.maxModuleTokens));
  if (parents.length === 0) throw new OptionsError('options.maxModuleTokens', 'a cap that keeps at least one editable library module', o.maxModuleTokens);
  // Held-out names are reserved: no module the designer learns to write shares a name with the held-out suite; nor a
  // knob setting with the near tier (reserved.ts: a written-out table, the warm start never reads that suite).
  const reservedNames = new Set(loadLibrary(repoPath('envs', 'heldout')).map((e) => e.spec.name));
  return {
    parents,
    plan: {
      perParent: o.editsPerParent, secondEdits: o.secondEdits, validationSeeds: o.editValidationSeeds, seed: o.seed, reservedNames, reservedSettings: NEAR_TIER_SETTINGS,
      ...(o.designerOutput === 'knobs' ? { rewordShare: 0 } : {}),
    },
  };
}

/**
 * The other knob settings a run with options `o` imitates (settingsPerModule > 0): the named library modules, each
 * with settingsPerModule settings drawn by knob-settings.ts, never a near-tier one, seeded by `o.seed` apart from the
 * edits. The tests regenerate a recipe's settings through this function rather than a copy of it.
 */
export function knobSettingsOf(o: ResolvedWarmStartOptions, library: readonly LibraryEnv[]): { modules: LibraryEnv[]; drawn: KnobSettings } {
  if (o.settingModules.length === 0) throw new OptionsError('options.settingModules', 'at least one library module name when settingsPerModule > 0', o.settingModules);
  const movable = library.filter((m) => intKnobsOf(m.code).length > 0);
  const modules = o.settingModules.map((name, i) => {
    const e = movable.find((m) => m.name === name);
    if (!e) throw new OptionsError(`options.settingModules[${i}]`, `a library module with an integer knob (${movable.map((m) => m.name).join(', ')})`, name);
    return e;
  });
  return { modules, drawn: knobSettings(modules, { perModule: o.settingsPerModule, spread: o.settingSpread, reserved: NEAR_TIER_SETTINGS }, makeRandom(o.seed * 7919 + 17)) };
}

export async function warmStart(options: WarmStartOptions = {}, log: (line: string) => void = console.log): Promise<WarmStartSummary> {
  const o = validateWarmStartOptions(options);
  const t0 = performance.now();
  const start = await initModel(o.initCheckpoint);
  const hf = start?.imported ? start.init : undefined;
  const tok = hf?.codec ?? loadTokenizer();
  const config = hf?.model ?? validateDecoderConfig({ ...o.model, vocab: tok.vocabSize });
  const library = loadLibrary();
  const docs = await openDocuments(o.documents);
  const { parents: designerEnvs, plan } = designerEditInputs(o, library, tok);
  const seeds = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
  const seedsOf = (e: LibraryEnv): number[] => seeds(o.hintEnvEpisodes > 0 && vmEnv(e).reset(1).instanceHint ? o.hintEnvEpisodes : o.episodesPerEnv);
  // A generous call budget: the pool only replays library episodes and validates edits here, and the machine may be loaded.
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  let played, edited;
  let children: LibraryEnv[] = [];
  let childStats: OracleEpisodeStats | null = null;
  let settingStats: WarmStartSummary['settings'] = null;
  let drillStats: WarmStartSummary['drills'] = null;
  const drills = o.drills.map(drillEnv);
  drills.forEach((d, i) => {
    // Agent rows find their module by name: a drill may not shadow a library module or another drill.
    if (library.some((e) => e.name === d.name) || drills.findIndex((e) => e.name === d.name) < i) {
      throw new OptionsError(`options.drills[${i}]`, 'a module whose spec.name is no library module\'s nor another drill\'s', `${o.drills[i]} (${d.name})`);
    }
  });
  const settings = o.settingsPerModule > 0 ? knobSettingsOf(o, library) : null;
  const play = { spacedActions: o.spacedActions };
  try {
    played = await oracleEpisodes(pool, library, seedsOf, play);
    log(`warm-start: ${played.stats.kept}/${played.stats.played} oracle episodes kept (${played.stats.hintChanged} seeds where the hint changed the oracle's play) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    edited = await designerEdits(pool, designerEnvs, docs, plan);
    if (o.childEpisodes > 0) {
      // Agent data from the designer's own edits: each validated child of an instance-hint parent, played like a library env.
      const hinted = new Set(library.filter((e) => vmEnv(e).reset(1).instanceHint).map((e) => e.name));
      const byName = new Map(library.map((e) => [e.name, e]));
      children = edited.edits.filter((e) => hinted.has(e.root)).map((e, i) => libraryEnvOf(e.child, `${e.root}~${i}`, byName.get(e.root)!.family));
      const more = await oracleEpisodes(pool, children, seeds(o.childEpisodes), play);
      played = { episodes: [...played.episodes, ...more.episodes], stats: played.stats };
      childStats = more.stats;
      log(`warm-start: ${more.stats.kept}/${more.stats.played} oracle episodes kept on ${children.length} children of instance-hint parents (${more.stats.hintChanged} hint-changed)`);
    }
    if (settings) {
      // The modules at other knob settings (the copy stage), played like library envs.
      const { modules, drawn } = settings;
      const more = await oracleEpisodes(pool, drawn.envs, seeds(o.settingEpisodes), play);
      played = { episodes: [...played.episodes, ...more.episodes], stats: played.stats };
      children = [...children, ...drawn.envs];
      settingStats = { modules: modules.map((e) => e.name), settings: drawn.envs.length, reserved: drawn.reserved, episodes: more.stats };
      log(`warm-start: ${more.stats.kept}/${more.stats.played} oracle episodes kept on ${drawn.envs.length} other knob settings of ${settingStats.modules.join(', ')} `
        + `(${drawn.reserved} near-tier settings left out, ${more.stats.lost} lost by the oracle)`);
    }
    if (drills.length > 0) {
      const more = await oracleEpisodes(pool, drills, seeds(o.drillEpisodes), play);
      played = { episodes: [...played.episodes, ...more.episodes], stats: played.stats };
      children = [...children, ...drills];
      drillStats = { modules: drills.map((e) => e.name), episodes: more.stats };
      log(`warm-start: ${more.stats.kept}/${more.stats.played} oracle episodes kept on the drills ${drillStats.modules.join(', ')} (${more.stats.lost} lost by the oracle)`);
    }
  } finally {
    await pool.close();
  }
  if (edited.edits.length === 0) throw new OptionsError('options.editsPerParent', 'settings under which some edited child validates', o.editsPerParent);
  const data = new WarmStartData(tok, library, edited.edits, played.episodes, {
    seed: o.seed, batchTokens: o.batchTokens, contextLength: config.contextLength, maxMemory: o.maxMemory,
    agentMaxPromptTokens: o.agentMaxPromptTokens, agentFraction: o.agentFraction, designerOutput: o.designerOutput,
  }, children);
  const dataSeconds = (performance.now() - t0) / 1000;
  const shapes = parameterShapes(config);
  let nParams = 0;
  for (const s of shapes.values()) nParams += s.reduce((a, b) => a * b, 1);
  log(`warm-start: ${library.length} library envs, ${played.stats.kept}/${played.stats.played} oracle episodes kept `
    + `(${played.stats.mismatched} vm/sandbox mismatches, ${played.stats.lost} lost), documents: ${docs.kind} (${docs.size} chunks), data ready in ${dataSeconds.toFixed(1)} s`);
  log(`designer edits: ${edited.stats.valid}/${edited.stats.tried} children validate (rejected ${JSON.stringify(edited.stats.rejected)}), `
    + `${edited.stats.parents} of ${designerEnvs.length} parents (<= ${o.maxModuleTokens || 'any'} tokens): ${designerEnvs.map((e) => e.name).join(', ')}`);
  log(`model ${JSON.stringify(config)}, ${(nParams / 1e6).toFixed(2)}M parameters; ${o.steps} steps of <= ${o.batchTokens} tokens, lr ${o.lr}, seed ${o.seed}`);

  const params = hf?.params ?? (start ? initialWeights(start.init, config) : initParameters(config, o.seed));
  if (o.initCheckpoint) log(`weights from ${o.initCheckpoint}`);
  const session = await ModelSession.create(config, { graphs: ['train'], ...(o.threads > 0 ? { intraOpNumThreads: o.threads } : {}) });
  const optimizer = (planned: number): AdamW => new AdamW({
    weightDecay: o.weightDecay, schedule: { peakLr: o.lr, warmupSteps: Math.min(o.warmupSteps, planned), decaySteps: planned, minLr: o.minLr },
  });
  let planned = o.steps;
  let opt = optimizer(planned);
  const save = (step: number): Promise<void> => saveCheckpoint(o.outDir, {
    model: { ...config }, params, shapes, tokenizer: tok, policyVersion: 0, step, ...(o.saveOptimizer ? { optimizer: opt.exportState() } : {}),
    ...(hf?.hfConfig !== undefined ? { hfConfig: hf.hfConfig } : {}),
  });

  const curve: LossPoint[] = [];
  const win: Record<Role, { nll: number; n: number }> = { designer: { nll: 0, n: 0 }, agent: { nll: 0, n: 0 } };
  const tTrain = performance.now();
  let tokens = 0, padded = 0, step = 0, stoppedByClock = false;
  try {
    for (; step < planned; step++) {
      if (o.minutes > 0 && performance.now() - t0 > o.minutes * 60_000) { stoppedByClock = true; break; }
      if (o.planBy === 'clock' && step > 0 && step % o.replanEvery === 0) {
        // Re-aim the cosine at the clock: the steps that fit in the time left at the mean step time so far.
        const secPerStep = (performance.now() - tTrain) / 1000 / step;
        const left = o.minutes * 60 - (performance.now() - t0) / 1000 - 15; // keep a margin for the final save
        const next = Math.max(step + 1, step + Math.floor(left / secPerStep));
        if (next !== planned) {
          const state = opt.exportState();
          opt = optimizer(next);
          opt.loadState(state);
          planned = next;
        }
      }
      const { role, rows } = data.nextBatch(step);
      const masked = rows.reduce((a, r) => a + r.mask.reduce((x, y) => x + y, 0), 0);
      const batch = packBatch(rows.map((r) => ({ tokens: r.tokens, mask: r.mask, dlogp: r.mask.map((m) => -m / masked) })));
      const out = await session.train(batch, params);
      const upd = opt.update(params, out.grads as Map<string, Float32Array>);
      for (let i = 0; i < out.logp.length; i++) win[role].nll -= batch.mask[i]! * out.logp[i]!;
      win[role].n += masked;
      tokens += batch.lengths.reduce((a, b) => a + b, 0);
      padded += batch.batch * batch.time;
      if ((step + 1) % o.logEvery === 0 || step + 1 === planned) {
        const point: LossPoint = { step: step + 1, designer: win.designer.n ? win.designer.nll / win.designer.n : null, agent: win.agent.n ? win.agent.nll / win.agent.n : null };
        curve.push(point);
        win.designer = { nll: 0, n: 0 };
        win.agent = { nll: 0, n: 0 };
        const sec = (performance.now() - tTrain) / 1000;
        const eta = (sec / (step + 1)) * (planned - step - 1);
        log(`step ${String(step + 1).padStart(4)}/${planned}  loss designer ${fmt(point.designer)} agent ${fmt(point.agent)}  lr ${upd.lr.toExponential(2)} gnorm ${upd.gradNorm.toFixed(2)}  `
          + `${(tokens / sec).toFixed(0)} tok/s (${(padded / sec).toFixed(0)} padded)  ${sec.toFixed(0)} s, ETA ${eta.toFixed(0)} s`);
      }
      if (o.saveEvery > 0 && (step + 1) % o.saveEvery === 0 && step + 1 < planned) await save(step + 1);
    }
    await save(step);
  } finally {
    await session.release();
  }
  const seconds = (performance.now() - t0) / 1000;
  const trainSec = (performance.now() - tTrain) / 1000;
  return {
    options: o, config, params: nParams, steps: step, stoppedByClock, seconds, dataSeconds, tokens, tokensPerSec: tokens / trainSec, paddedTokensPerSec: padded / trainSec,
    curve, documents: { kind: docs.kind, size: docs.size }, library: library.length, designerEnvs: designerEnvs.map((e) => e.name), episodes: played.stats, childEpisodes: childStats,
    settings: settingStats, drills: drillStats, droppedRows: data.dropped,
    edits: { ...edited.stats, examples: edited.edits.length },
  };
}
