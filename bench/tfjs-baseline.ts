// Loads bench:model's tfjs baseline (bench/tfjs-*.mjs) at run time through a computed specifier, so the product's
// build never resolves @tensorflow/tfjs: bench/node_modules exists only after `npm --prefix bench install`.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parameterShapes } from '../model/decoder.js';
import { type ResolvedDecoderConfig } from '../model/decoder-config.js';
import { repoPath } from '../runtime/paths.js';
import { BaselineUnavailableError, BenchOptionError } from './errors.js';

export type TfjsBackendName = 'auto' | 'wasm' | 'cpu';

export interface TfjsBaselineOptions {
  /** 'auto' times WASM and CPU on the model itself (./tfjs-probe.mjs) and keeps the faster. */
  backend?: TfjsBackendName;
  /** WASM (XNNPACK) threads; 0 tries all cores and 1 thread and keeps the faster. */
  threads?: number;
}

export const DEFAULT_TFJS_BASELINE_OPTIONS: Required<TfjsBaselineOptions> = { backend: 'auto', threads: 0 };

export function validateTfjsBaselineOptions(o: TfjsBaselineOptions = {}): Required<TfjsBaselineOptions> {
  const r = { ...DEFAULT_TFJS_BASELINE_OPTIONS, ...o };
  if (!['auto', 'wasm', 'cpu'].includes(r.backend)) throw new BenchOptionError('tfjs.backend', "'auto', 'wasm' or 'cpu'", r.backend);
  if (!Number.isInteger(r.threads) || r.threads < 0) throw new BenchOptionError('tfjs.threads', 'a non-negative integer', r.threads);
  return r;
}

interface Candidate { backend: 'wasm' | 'cpu'; threads: number }

function candidates(o: Required<TfjsBaselineOptions>): Candidate[] {
  const wasmThreads = o.threads > 0 ? [o.threads] : [...new Set([availableParallelism(), 1])];
  const list: Candidate[] = o.backend === 'cpu' ? [] : wasmThreads.map((threads) => ({ backend: 'wasm', threads }));
  if (o.backend !== 'wasm') list.push({ backend: 'cpu', threads: 1 });
  return list;
}

/** Each candidate timed on the model in its own process; the one entry when there is nothing to choose. */
async function probe(list: Candidate[], config: ResolvedDecoderConfig, shapes: Map<string, number[]>): Promise<Map<Candidate, number | null>> {
  const out = new Map<Candidate, number | null>();
  if (list.length === 1) return out.set(list[0]!, null);
  for (const c of list) {
    const arg = JSON.stringify({ ...c, config, shapes: [...shapes] });
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [repoPath('bench', 'tfjs-probe.mjs'), arg], { timeout: 120_000, maxBuffer: 1 << 20 });
      const line = stdout.split('\n').reverse().find((l) => l.startsWith('{'));
      const r = line ? (JSON.parse(line) as { ms: number | null; threads: number }) : null;
      out.set({ ...c, threads: r?.threads ?? c.threads }, r?.ms ?? null);
    } catch {
      out.set(c, null); // a candidate that crashes or times out is simply not chosen
    }
  }
  return out;
}

export interface TfjsBackendChoice {
  backend: 'wasm' | 'cpu';
  /** XNNPACK pool size for WASM; 1 for CPU. */
  threads: number;
  /** ms of the selection probe (a short training step and generation) per candidate, e.g. 'wasm x2'; empty when there was one. */
  probes: Record<string, number | null>;
  notes: string[];
}

/** bench/tfjs-decoder.mjs's TfjsDecoder, as the bench uses it. */
export interface TfjsDecoder {
  logp(tokens: Int32Array, batch: number, time: number): Promise<Float32Array>;
  trainStep(tokens: Int32Array, batch: number, time: number, mask: Float32Array, dlogp: Float32Array): Promise<{ logp: Float32Array; grads: Map<string, Float32Array> }>;
  generate(prompts: number[][], newTokens: number, pick: (logp: Float32Array) => number): Promise<number[][]>;
  decodeParity(tokens: number[], prefix: number): Promise<number>;
  dispose(): void;
}

export interface TfjsBaseline {
  choice: TfjsBackendChoice;
  createDecoder(shapes: Map<string, number[]>, weights: Map<string, Float32Array>): TfjsDecoder;
  /** Tensor bytes now, and the WASM heap (never shrinks, so tfjs's peak); 0 on the CPU backend. */
  memory(): { tensorBytes: number; wasmHeapBytes: number };
}

/** Probes the backend candidates, brings the fastest up in this process, and returns the baseline. */
export async function loadTfjsBaseline(config: ResolvedDecoderConfig, options: TfjsBaselineOptions = {}): Promise<TfjsBaseline> {
  const o = validateTfjsBaselineOptions(options);
  const url = (file: string): string => pathToFileURL(repoPath('bench', file)).href;
  let backendModule: any, decoderModule: any; // untyped JavaScript by design: the interfaces above describe what is used
  try {
    backendModule = await import(url('tfjs-backend.mjs'));
    decoderModule = await import(url('tfjs-decoder.mjs'));
  } catch (err) {
    throw new BaselineUnavailableError('the tfjs baseline cannot load: run `npm --prefix bench install` (npm run bench:model does)', err);
  }
  const timed = await probe(candidates(o), config, parameterShapes(config));
  const ranked = [...timed].filter(([, ms]) => ms !== null || timed.size === 1).sort((x, y) => x[1]! - y[1]!);
  if (ranked.length === 0) throw new BaselineUnavailableError('no tfjs backend candidate ran its probe');
  const best = ranked[0]![0];
  const up = await backendModule.initBackend(best.backend, best.threads);
  if (!up.backend) throw new BaselineUnavailableError(`tfjs backend ${best.backend} failed to initialise (${up.notes.join('; ') || 'no reason given'})`);
  const probes = Object.fromEntries([...timed].map(([c, ms]) => [`${c.backend} x${c.threads}`, ms]));
  const choice: TfjsBackendChoice = { backend: up.backend, threads: up.threads, probes, notes: up.notes };
  return {
    choice,
    createDecoder: (shapes, weights) => new decoderModule.TfjsDecoder(config, [...shapes].map(([n, s]) => [n, s, weights.get(n)])),
    memory: () => backendModule.memory(),
  };
}
