// Measures a checkpoint as a designer: samples N modules for corpus documents (the loop's prompt: 0..K memory lines and
// an editable library parent), validates each in the sandbox, and counts passes, failing stages, copies (of the
// library, of the parent), novelty (eval/novelty.ts against the library) and grounding: the document words a child
// brings in that its parent lacks, beside the same count against another sample's document (the shuffled control).
// With `output: 'knobs'` the prompt shows the parent's knob sheet and a sample is the knob lines it changes, spliced
// into the parent as the loop's designer does (actors/designer/knob-edit.ts); a refused edit fails at stage 'parse'.
import { ModelSession, Sampler, loadModel, promptFormat } from '../model/index.js';
import { SandboxPool, VALIDATION_STAGES, makeRandom, type ValidationReport } from '../sandbox/index.js';
import { DEFAULT_DOC_CHARS, designerPrompt } from '../actors/loop/index.js';
import { evalStops } from './agent-eval.js';
import { applyKnobEdit, broughtWords, editableLibrary, knobSheet, knobsOf, loadLibraryEnvs, parentFits } from '../actors/designer/index.js';
import { NoveltyIndex, normalisedHash } from '../eval/index.js';
import { openDocuments, type DocumentSourceKind } from './documents.js';
import { OptionsError } from '../runtime/options.js';
import { sampleMemory } from './examples.js';
import { loadLibrary } from './library.js';

export interface DesignerEvalOptions {
  checkpoint: string;
  samples?: number;
  temperature?: number;
  topP?: number;
  maxMemory?: number;
  seed?: number;
  documents?: DocumentSourceKind;
  /** Longest module sampled (also bounded by the context left after the prompt). */
  maxTokens?: number;
  /** Sampler rows decoded together. */
  maxBatch?: number;
  /** Sandbox per-call budget; the default allows for a loaded 2-core machine (the library test uses the same). */
  callTimeoutMs?: number;
  threads?: number;
  /** What the designer writes (the loop's designer.output): a whole module, or the knob lines it changes. */
  output?: 'module' | 'knobs';
}

export const DEFAULT_DESIGNER_EVAL_OPTIONS: Required<Omit<DesignerEvalOptions, 'checkpoint'>> = {
  samples: 40, temperature: 0.5, topP: 1, maxMemory: 3, seed: 7, documents: 'corpus', maxTokens: 1400, maxBatch: 20, callTimeoutMs: 200, threads: 0, output: 'module',
};

export interface DesignerSample {
  doc: string;
  text: string;
  tokens: number;
  finishReason: string;
  /** 'ok' or the first failing validation stage. */
  stage: string;
  detail?: string;
  name: string | null;
  /** The module equals a library module byte for byte. */
  libraryCopy: boolean;
  /** The library module shown as the parent. */
  parent: string;
  /** Same normalised code as the parent (comments and whitespace aside). */
  parentCopy: boolean;
  /** eval/novelty.ts against the library: not a copy and trigram similarity below the threshold. */
  novel: boolean;
  /** The same with strings and numbers masked: new rules, not only new words or constants. */
  newStructure: boolean;
  maxLibrarySimilarity: number;
  /** Distinct words of this sample's document that the module has and its parent lacks. */
  docWords: number;
  /** The same against the next sample's document (the shuffled-document control). */
  shuffledDocWords: number;
  /** The module the sample makes: the text itself, or (knob edits) the parent with the sample's values spliced in. */
  code: string;
  /** Integer knobs whose value differs from the parent's. */
  intKnobsMoved: string[];
}

export interface DesignerEvalResult {
  options: Required<DesignerEvalOptions>;
  samples: DesignerSample[];
  passRate: number;
  stages: Record<string, number>;
  distinctValidNames: string[];
  libraryCopies: number;
  /** Valid samples: copies of their parent, novel ones, and mean document words against the shuffled control. */
  valid: { n: number; parentCopies: number; novel: number; newStructure: number; docWords: number; shuffledDocWords: number; intKnobMoves: number };
  sampleSeconds: number;
  validateSeconds: number;
  sampledTokensPerSec: number;
}

export async function evaluateDesigner(options: DesignerEvalOptions): Promise<DesignerEvalResult> {
  const o = { ...DEFAULT_DESIGNER_EVAL_OPTIONS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as Required<DesignerEvalOptions>;
  if (!Number.isInteger(o.samples) || o.samples < 1) throw new OptionsError('options.samples', 'a positive integer', o.samples);
  if (!(o.temperature >= 0)) throw new OptionsError('options.temperature', 'a number >= 0', o.temperature);
  if (o.output !== 'module' && o.output !== 'knobs') throw new OptionsError('options.output', "'module' or 'knobs'", o.output);
  const ck = await loadModel(o.checkpoint); // a SPADE checkpoint or a Hugging Face directory
  if (ck.codec === undefined) throw new OptionsError('options.checkpoint', 'a model with a tokenizer', o.checkpoint);
  const tok = promptFormat(ck.codec);
  const config = ck.model;
  const library = loadLibrary();
  const copies = new Set(library.map((e) => e.code));
  const parents = editableLibrary(loadLibraryEnvs(), parentFits({ format: tok, contextLength: config.contextLength }));
  const novelty = new NoveltyIndex(library);
  const docs = await openDocuments(o.documents);
  const random = makeRandom(o.seed);
  const session = await ModelSession.create(config, { graphs: ['sample'], ...(o.threads > 0 ? { intraOpNumThreads: o.threads } : {}) });
  const sampler = new Sampler(session, ck.params, ck.policyVersion, tok, { maxBatch: o.maxBatch, stopTokens: evalStops(tok), seed: o.seed });
  const t0 = performance.now();
  let outs;
  const requests = Array.from({ length: o.samples }, () => {
    const doc = docs.sample(random);
    const parent = parents[Math.floor(random() * parents.length)]!;
    const memory = sampleMemory(library, parent.name, o.maxMemory, random);
    const prompt = designerPrompt(tok, { doc: doc.text, memory, ...(o.output === 'knobs' ? { parentKnobs: knobSheet(parent.code)! } : { parent: parent.code }) });
    // The words the prompt shows: designerPrompt cuts the document to DEFAULT_DOC_CHARS.
    return { doc: doc.id, text: doc.text.slice(0, DEFAULT_DOC_CHARS), parent, prompt };
  });
  try {
    outs = await Promise.all(requests.map((r) => sampler.generate({ prompt: r.prompt, temperature: o.temperature, topP: o.topP, maxTokens: Math.min(o.maxTokens, config.contextLength - r.prompt.length) })));
  } finally {
    await sampler.close();
    await session.release();
  }
  const sampleSeconds = (performance.now() - t0) / 1000;
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: o.callTimeoutMs, wallClockKillMs: Math.max(5000, o.callTimeoutMs * 10) });
  const t1 = performance.now();
  // Knob edits become modules first; a refused one is not validated.
  const edits = outs.map((s, i) => (o.output === 'knobs' ? applyKnobEdit(requests[i]!.parent.code, s.text) : null));
  const codes = outs.map((s, i) => { const e = edits[i]; return e ? (e.ok ? e.code : null) : s.text; });
  let reports: Array<ValidationReport | null>;
  try {
    reports = await Promise.all(codes.map((c) => (c === null ? null : pool.validate(c))));
  } finally {
    await pool.close();
  }
  const validateSeconds = (performance.now() - t1) / 1000;
  const brought = broughtWords;
  const samples: DesignerSample[] = outs.map((s, i) => {
    const r = reports[i];
    const q = requests[i]!;
    const code = codes[i] ?? '';
    const refused = edits[i] && !edits[i]!.ok ? (edits[i] as { reason: string }).reason : null;
    const failing = r?.stages.find((x) => !x.ok);
    const nov = novelty.assess(code);
    const was = new Map(knobsOf(q.parent.code).map((k) => [k.name, k]));
    const intKnobsMoved = knobsOf(code).filter((k) => k.kind === 'int' && was.get(k.name)?.value !== k.value).map((k) => k.name);
    return {
      doc: q.doc, text: s.text, tokens: s.tokens.length, finishReason: s.finishReason, stage: !r ? 'parse' : r.ok ? 'ok' : (r.failed ?? 'unknown'),
      ...(refused ? { detail: refused.slice(0, 200) } : failing?.detail ? { detail: failing.detail.slice(0, 200) } : {}), name: r?.spec?.name ?? null, libraryCopy: copies.has(code),
      parent: q.parent.name, parentCopy: normalisedHash(code) === normalisedHash(q.parent.code), novel: nov.novel, newStructure: nov.newStructure, maxLibrarySimilarity: nov.maxLibrarySimilarity,
      docWords: brought(code, q.parent.code, q.text), shuffledDocWords: brought(code, q.parent.code, requests[(i + 1) % requests.length]!.text),
      code, intKnobsMoved,
    };
  });
  const stages: Record<string, number> = { ok: 0, ...Object.fromEntries(VALIDATION_STAGES.map((st) => [st, 0])) };
  for (const s of samples) stages[s.stage] = (stages[s.stage] ?? 0) + 1;
  const valid = samples.filter((s) => s.stage === 'ok');
  const meanOf = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    valid: {
      n: valid.length, parentCopies: valid.filter((s) => s.parentCopy).length, novel: valid.filter((s) => s.novel).length, newStructure: valid.filter((s) => s.newStructure).length,
      docWords: meanOf(valid.map((s) => s.docWords)), shuffledDocWords: meanOf(valid.map((s) => s.shuffledDocWords)),
      intKnobMoves: valid.filter((s) => s.intKnobsMoved.length > 0).length,
    },
    options: o, samples, passRate: valid.length / samples.length, stages, distinctValidNames: [...new Set(valid.map((s) => s.name!))].sort(),
    libraryCopies: samples.filter((s) => s.libraryCopy).length, sampleSeconds, validateSeconds,
    sampledTokensPerSec: outs.reduce((a, s) => a + s.tokens.length, 0) / sampleSeconds,
  };
}
