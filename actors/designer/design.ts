// The designer's logic for one design job, apart from the runtime: ground on a document, recall memory, sample a
// module, validate it, claim the verdict as the job's outcome, and turn the outcome that stands into outputs
// (accepted + rollout job, or rejected) with stable msgIds.
import type { ActorOutput } from '../../runtime/actor.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { makeRandom } from '../../sandbox/index.js';
import type { ValidationReport } from '../../sandbox/index.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';
import { EnvAccepted, EnvRejected, RolloutJob, type AcceptedEnv, type DesignJobBody, type DesignOutcomeBody, type Sample } from '../loop/messages.js';
import type { LoopOptions } from '../loop/options.js';
import { DesignOutcomeError, LoopError } from '../loop/errors.js';
import { newMemoryEntry, type MemoryEntry } from '../loop/memory/memory-entry.js';
import { retrieve } from '../loop/memory/retrieve.js';
import type { Policy } from '../loop/policy/policy-service.js';
import { buildDesignerPrompt } from './designer-prompt.js';
import type { LibraryEnv } from './library-envs.js';
import { broughtWords } from './grounding.js';
import { applyKnobEdit, knobSheet } from './knob-edit.js';
import { pickFamily, pickParent } from './parent.js';
import type { DesignOutcomes } from './outcome-store.js';

/** A grounding document as the designer uses it. */
export interface GroundingDoc {
  id: string;
  text: string;
  source?: string;
  kind?: string;
}

export interface DesignerDeps {
  policy: Policy;
  sandbox: Sandbox;
  options: LoopOptions;
  /** Draws a document for a seeded random stream; null = no corpus (noCorpus, or none loaded). */
  corpus: ((random: () => number) => GroundingDoc) | null;
  /** Environment memory: read for retrieval, written on acceptance (add keeps the first entry of an envId); null = none. */
  memory: { entries(): MemoryEntry[]; add(entry: MemoryEntry): Promise<boolean> } | null;
  /**
   * Where a job's verdict is claimed before anything is remembered or published (OutcomeStore); a retried job gets
   * the first attempt's verdict back and republishes it. null = no claim: only for callers that run a job once.
   */
  outcomes: DesignOutcomes | null;
  /** The fixed-environment baseline's library (loaded when ablations.fixedEnvs). */
  library?: LibraryEnv[];
  /** The library modules the designer may edit (parents when memory has none; editableLibrary()). */
  parents?: LibraryEnv[];
}

/** The outcome that stands for the job (this attempt's, or an earlier attempt's it lost the claim to). */
export interface DesignResult {
  outputs: ActorOutput[];
  accepted: AcceptedEnv | null;
  /** The failing stage when rejected. */
  stage?: string;
  /** The designer sample the published verdict carries (absent for library environments). */
  sample?: Sample;
  /** True when an earlier attempt of the job had claimed the outcome: this attempt's own sample was discarded. */
  replayed: boolean;
}

/** The environment id of a design job; every output of the job derives its msgId from it. */
export function envIdOf(jobId: string): string {
  return `env-${jobId}`.slice(0, 200);
}

/** The module in a completion: the text itself, or the body of a fenced code block when the model wrote one. */
export function extractModule(text: string): string {
  const fence = /```(?:js|javascript)?\s*\n([\s\S]*?)```/.exec(text);
  return (fence ? fence[1]! : text).trim();
}

/** The family of the parent whose description shares most words with the new environment's ('unknown' if none). */
export function guessFamily(description: string, parents: readonly MemoryEntry[]): string {
  const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 3));
  const mine = words(description);
  let best = 'unknown', bestOverlap = 0;
  for (const p of parents) {
    let n = 0;
    for (const w of words(p.description)) if (mine.has(w)) n++;
    if (n > bestOverlap) (bestOverlap = n, best = p.family);
  }
  return best;
}

function failure(report: ValidationReport): { stage: string; reason: string } {
  const st = report.stages.find((s) => !s.ok);
  const stage = report.failed ?? st?.stage ?? 'unknown';
  const reason = st?.detail ?? st?.error?.message ?? `failed at ${stage}`;
  return { stage, reason: reason.slice(0, 2000) };
}

/** Writes an accepted environment to the memory; library environments (no designer sample) are marked so. */
async function remember(deps: DesignerDeps, env: AcceptedEnv): Promise<void> {
  if (!deps.memory) return;
  const source = env.designer ? 'designer' : 'library';
  await deps.memory.add(newMemoryEntry({
    envId: env.envId, name: env.spec.name, description: env.spec.description, family: env.family, codeHash: env.codeHash, code: env.code,
    ...(env.doc ? { docId: env.doc.id } : {}), parents: env.parents, iteration: env.iteration, source,
  }));
}

/** The accepted outcome of `env`: its rollout job inherits the job's version floor (agents sample no older weights). */
function acceptedOutcome(env: AcceptedEnv, o: LoopOptions, job: DesignJobBody): DesignOutcomeBody {
  const floor = job.minPolicyVersion !== undefined ? { minPolicyVersion: job.minPolicyVersion } : {};
  return { envId: env.envId, rollout: { env, k: o.k, seedBase: job.seed, ...floor } };
}

/** An outcome's outputs: the same msgIds whichever attempt publishes them, so the streams keep one copy. */
export function outcomeOutputs(outcome: DesignOutcomeBody): ActorOutput[] {
  const { envId, rollout, rejected } = outcome;
  if (rejected) return [{ subject: SUBJECTS.envRejected, type: EnvRejected, body: rejected, msgId: `env:${envId}` }];
  if (!rollout) throw new DesignOutcomeError(`design outcome of ${envId} holds no verdict`, { envId });
  return [
    { subject: SUBJECTS.envAccepted, type: EnvAccepted, body: rollout.env, msgId: `env:${envId}` },
    { subject: SUBJECTS.jobRollout, type: RolloutJob, body: rollout, msgId: `rollout:${envId}` },
  ];
}

/**
 * Claims `mine` as the job's outcome, or takes the one an earlier attempt claimed; only the outcome that stands is
 * remembered (when accepted) and published. Remembering after the claim, on every attempt, covers an attempt that
 * died between its claim and its memory write; memory.add keeps the first entry of an envId, so a repeat is a no-op.
 */
async function settle(mine: DesignOutcomeBody, deps: DesignerDeps): Promise<DesignResult> {
  const { outcome, first } = deps.outcomes ? await deps.outcomes.claim(mine) : { outcome: mine, first: true };
  const env = outcome.rollout?.env ?? null;
  // A replay's environment is in memory already, under the envId it replays (the evaluator updates that entry).
  if (env && env.replayOf === undefined) await remember(deps, env);
  const sample = env ? env.designer : outcome.rejected?.designer;
  return {
    outputs: outcomeOutputs(outcome), accepted: env,
    ...(outcome.rejected ? { stage: outcome.rejected.stage } : {}), ...(sample ? { sample } : {}), replayed: !first,
  };
}

/** The fixed-environment baseline: a seeded pick from the library, published as accepted without a designer sample. */
async function pickLibrary(job: DesignJobBody, deps: DesignerDeps): Promise<DesignResult> {
  const lib = deps.library ?? [];
  if (lib.length === 0) throw new LoopError('loop.ablations.fixedEnvs needs a non-empty environment library (envs/library)', { code: 'LIBRARY_EMPTY' });
  const pick = lib[Math.floor(makeRandom(job.seed)() * lib.length)]!;
  // Library environments are validated by their own test suite; reset only reads the spec and the hash.
  const first = await deps.sandbox.reset({ code: pick.code, seed: 0 });
  const { name, description, hint, maxTurns } = first.spec;
  const env: AcceptedEnv = {
    envId: envIdOf(job.jobId), jobId: job.jobId, iteration: job.iteration, code: pick.code, codeHash: first.codeHash,
    spec: { name, description, hint, maxTurns }, family: pick.family, parents: [], validation: { ms: 0 },
  };
  return settle(acceptedOutcome(env, deps.options, job), deps);
}

/**
 * A replay (loop.replay): the coordinator's buffer picked an accepted environment to play again. It is published as
 * accepted under this job's envId, with replayOf, no designer sample and nothing to validate (it passed validation
 * when it was designed); reset only reads the spec and the hash. A reset that fails throws, as a library pick's does,
 * and the host retries the job.
 */
async function replayAccepted(job: DesignJobBody, replay: NonNullable<DesignJobBody['replay']>, deps: DesignerDeps): Promise<DesignResult> {
  const first = await deps.sandbox.reset({ code: replay.code, seed: 0 });
  const { name, description, hint, maxTurns } = first.spec;
  const env: AcceptedEnv = {
    envId: envIdOf(job.jobId), jobId: job.jobId, iteration: job.iteration, code: replay.code, codeHash: first.codeHash,
    spec: { name, description, hint, maxTurns }, family: replay.family, parents: [replay.envId], replayOf: replay.envId, validation: { ms: 0 },
  };
  return settle(acceptedOutcome(env, deps.options, job), deps);
}

export async function design(job: DesignJobBody, deps: DesignerDeps, signal?: AbortSignal): Promise<DesignResult> {
  const o = deps.options;
  if (o.ablations.fixedEnvs) return pickLibrary(job, deps);
  if (job.replay) return replayAccepted(job, job.replay, deps);
  const random = makeRandom(job.seed);
  const doc = o.ablations.noCorpus || !deps.corpus ? null : deps.corpus(random);
  // Family first (designer.familyBalance): memory and parents then come from that family only.
  const family = o.designer.familyBalance ? pickFamily(deps.parents ?? [], random) : null;
  const inFamily = <T extends { family: string }>(xs: readonly T[]): T[] => (family === null ? [...xs] : xs.filter((x) => x.family === family));
  const recalled = o.ablations.noMemory || !deps.memory
    ? []
    : retrieve(inFamily(deps.memory.entries()), { k: o.memory.k, frontierFraction: o.memory.frontierFraction, frontierPool: o.memory.frontierPool, seed: job.seed }).map((r) => r.entry);
  const parent = pickParent(recalled, inFamily(deps.parents ?? []), o.designer.libraryParents, random);
  // Knob edits (designer.output 'knobs'): the prompt shows the parent's knob sheet, the sample is the lines it changes.
  const sheet = o.designer.output === 'knobs' && parent ? knobSheet(parent.code) : null;
  const maxTokens = sheet !== null ? o.designer.knobMaxTokens : o.designer.maxTokens;
  const prompt = buildDesignerPrompt(deps.policy, {
    doc: doc?.text ?? '', memory: recalled, docChars: o.designer.docChars, maxTokens,
    ...(sheet !== null ? { parentKnobs: sheet } : parent ? { parent: parent.code } : {}),
  });
  const sample = await deps.policy.sample(prompt.tokens, { ...samplingOf(o.designer), maxTokens, role: 'designer', ...(signal ? { signal } : {}) });
  // A cancelled generation is cut short: never judge or publish it; the host puts the job back.
  signal?.throwIfAborted();
  const edit = sheet !== null && parent ? applyKnobEdit(parent.code, sample.text) : null;
  const code = edit ? (edit.ok ? edit.code : '') : extractModule(sample.text);
  // The edited parent first, then the other entries the prompt showed.
  const shown = parent && prompt.parent ? parent : null;
  const parents = [...(shown ? [shown.id] : []), ...prompt.memory.map((m) => m.envId).filter((id) => id !== shown?.id)];
  const docRef = doc ? { id: doc.id, ...(doc.source !== undefined ? { source: doc.source } : {}), ...(doc.kind !== undefined ? { kind: doc.kind } : {}) } : undefined;
  const envId = envIdOf(job.jobId);
  const base = { envId, jobId: job.jobId, iteration: job.iteration, ...(docRef ? { doc: docRef } : {}), parents };

  const report: ValidationReport | null = code === '' ? null : await deps.sandbox.validate(code, { seeds: o.designer.validationSeeds });
  if (!report || !report.ok || !report.spec) {
    const unparsed = edit && !edit.ok ? `the knob edit is refused: ${edit.reason}` : 'the completion holds no module (empty text)';
    const { stage, reason } = report ? failure(report) : { stage: 'parse', reason: unparsed };
    // A refused knob edit keeps what the designer wrote, as a module that fails does.
    return settle({ envId, rejected: { ...base, code: edit && !edit.ok ? sample.text : code, stage, reason, designer: sample } }, deps);
  }
  const { name, description, hint, maxTurns } = report.spec;
  const st = report.stats;
  const grounding = doc && deps.corpus ? groundingOf(code, shown?.code ?? '', doc, deps.corpus, job.seed, prompt.docChars) : undefined;
  const env: AcceptedEnv = {
    ...base, code, codeHash: report.codeHash, spec: { name, description, hint, maxTurns }, family: shown ? shown.family : guessFamily(description, prompt.memory),
    designer: sample,
    validation: {
      ms: report.ms,
      ...(st.oracleMean !== null ? { oracleMean: st.oracleMean } : {}),
      ...(st.randomMean !== null ? { randomMean: st.randomMean } : {}),
      ...(st.constantMean !== null ? { constantMean: st.constantMean } : {}),
    },
    ...(grounding ? { grounding } : {}),
  };
  return settle(acceptedOutcome(env, o, job), deps);
}

/** Grounding counts of an accepted module: against its document, and against another one drawn on a stream of its own. */
function groundingOf(code: string, parent: string, doc: GroundingDoc, corpus: (random: () => number) => GroundingDoc, seed: number, chars: number) {
  const random = makeRandom((seed ^ 0x5bd1e995) >>> 0);
  let control = corpus(random);
  for (let i = 0; i < 4 && control.id === doc.id; i++) control = corpus(random);
  return { docWords: broughtWords(code, parent, doc.text.slice(0, chars)), controlWords: broughtWords(code, parent, control.text.slice(0, chars)) };
}

export function samplingOf(s: { maxTokens: number; temperature: number; topP: number }): { maxTokens: number; temperature: number; topP: number } {
  return { maxTokens: s.maxTokens, temperature: s.temperature, topP: s.topP };
}
