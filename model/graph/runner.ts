// Runs a compiled graph on onnxruntime-node: one InferenceSession reused across calls, feeds checked against
// the graph's signature (dtype, rank, static dims) before the native call so mistakes name the input.
import ort from 'onnxruntime-node';
import { ModelOptionError } from '../errors.js';
import { GraphRunError } from './errors.js';
import type { CompiledGraph } from './emit.js';
import type { DType, TypedArray } from './graph.js';

export interface RunnerOptions {
  /** Execution providers in preference order, as onnxruntime names them ('cpu', 'webgpu', 'cuda'). */
  executionProviders?: string[];
  intraOpNumThreads?: number;
  /** 'all' lets onnxruntime fuse Transpose+MatMul and the like; tests of raw semantics may pick 'disabled'. */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /**
   * Let idle intra-op threads spin: lower latency on dedicated cores, but on shared cores the spinning takes cycles
   * from the work (training step 349 -> 208 ms on this 2-core machine with spinning off), so off by default.
   */
  allowSpinning?: boolean;
  /**
   * onnxruntime's CPU arena: it keeps every block it ever allocated for reuse and never gives memory back. With
   * dynamic shapes (prefills of any length, training batches of any size) each session's arena grows to the
   * largest run it has seen plus fragmentation; see docs/reliability.md, resource limits.
   */
  memoryArena?: boolean;
}

export const DEFAULT_RUNNER_OPTIONS: Required<RunnerOptions> = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 0,
  graphOptimizationLevel: 'all',
  allowSpinning: false,
  memoryArena: true,
};

const LEVELS = ['disabled', 'basic', 'extended', 'all'] as const;

export function validateRunnerOptions(options: RunnerOptions = {}): Required<RunnerOptions> {
  const o = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  if (!Array.isArray(o.executionProviders) || o.executionProviders.length === 0 || o.executionProviders.some((p) => typeof p !== 'string')) {
    throw new ModelOptionError('executionProviders', 'a non-empty list of provider names', o.executionProviders);
  }
  if (!Number.isInteger(o.intraOpNumThreads) || o.intraOpNumThreads < 0) throw new ModelOptionError('intraOpNumThreads', 'an integer >= 0 (0: all cores)', o.intraOpNumThreads);
  if (!LEVELS.includes(o.graphOptimizationLevel)) throw new ModelOptionError('graphOptimizationLevel', LEVELS.map((l) => `'${l}'`).join(' | '), o.graphOptimizationLevel);
  if (typeof o.allowSpinning !== 'boolean') throw new ModelOptionError('allowSpinning', 'a boolean', o.allowSpinning);
  if (typeof o.memoryArena !== 'boolean') throw new ModelOptionError('memoryArena', 'a boolean', o.memoryArena);
  return o;
}

export type Feed = ort.Tensor | { data: TypedArray; dims: readonly number[] };

const ARRAY_OF: Record<DType, Function> = { float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array };
const ORT_TYPE: Record<DType, ort.Tensor.Type> = { float32: 'float32', float64: 'float64', int64: 'int64', int32: 'int32', bool: 'bool' };

export class GraphRunner {
  private constructor(readonly graph: CompiledGraph, readonly session: ort.InferenceSession) {}

  static async create(graph: CompiledGraph, options: RunnerOptions = {}): Promise<GraphRunner> {
    const o = validateRunnerOptions(options);
    try {
      const session = await ort.InferenceSession.create(graph.bytes, {
        executionProviders: o.executionProviders,
        intraOpNumThreads: o.intraOpNumThreads,
        graphOptimizationLevel: o.graphOptimizationLevel,
        logSeverityLevel: 3,
        enableCpuMemArena: o.memoryArena,
        extra: { session: { intra_op: { allow_spinning: o.allowSpinning ? '1' : '0' } } },
      });
      // The runner needs the signature only; dropping the model bytes frees a copy of any baked-in weights.
      return new GraphRunner({ ...graph, bytes: new Uint8Array(0) }, session);
    } catch (err) {
      throw new GraphRunError(`onnxruntime rejected the graph: ${(err as Error).message}`, { nodes: graph.nodeCount }, err);
    }
  }

  get inputNames(): string[] { return this.graph.inputs.map((i) => i.name); }

  /** Feeds may hold extra entries (e.g. weights the graph does not use); missing ones are an error. */
  async run(feeds: Record<string, Feed> | Map<string, Feed>): Promise<Record<string, ort.Tensor>> {
    const get = (n: string): Feed | undefined => (feeds instanceof Map ? feeds.get(n) : feeds[n]);
    const actual: Record<string, ort.Tensor> = {};
    for (const info of this.graph.inputs) {
      const f = get(info.name);
      if (f === undefined) throw new GraphRunError(`missing feed ${info.name}`, { input: info.name });
      if (!(f instanceof ort.Tensor) && !(f.data instanceof ARRAY_OF[info.dtype])) {
        throw new GraphRunError(`feed ${info.name} holds a ${f.data.constructor.name}, expected ${ARRAY_OF[info.dtype].name}`, { input: info.name });
      }
      const t = f instanceof ort.Tensor ? f : new ort.Tensor(ORT_TYPE[info.dtype], f.data as never, f.dims);
      if (t.type !== ORT_TYPE[info.dtype]) throw new GraphRunError(`feed ${info.name} has dtype ${t.type}, expected ${info.dtype}`, { input: info.name });
      const bad = t.dims.length !== info.shape.length || info.shape.some((d, i) => typeof d === 'number' && d !== t.dims[i]);
      if (bad) throw new GraphRunError(`feed ${info.name} has shape [${t.dims.join(',')}], expected [${info.shape.join(',')}]`, { input: info.name });
      actual[info.name] = t;
    }
    try {
      return await this.session.run(actual);
    } catch (err) {
      throw new GraphRunError(`onnxruntime failed: ${(err as Error).message}`, {}, err);
    }
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
