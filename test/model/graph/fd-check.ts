// Finite-difference gradient checking for graphs built in float64: analytic gradients from the walker
// against central differences of <out, w> with a random upstream w.
import { mulberry32 } from '../../helpers/random.js';
import { Graph, GraphRunner, emit, gradients, type Dim, type Shape, type Tensor } from '../../../model/graph/index.js';

export interface InputSpec {
  shape: number[];
  /** Defaults to uniform(-1, 1); give values for domains such as Log or Sqrt. */
  data?: number[];
  dtype?: 'float64' | 'int64' | 'bool';
  /** Whether to check this input's gradient (floats default to true). */
  diff?: boolean;
  /** Shape declared in the graph when it differs from `shape`, e.g. ['N', 3] to exercise run-time dims. */
  declared?: Dim[];
}

const size = (s: readonly number[]): number => s.reduce((p, q) => p * q, 1);

/** (f(v[j] + eps) - f(v[j] - eps)) / 2 eps, with v[j] restored afterwards. */
export async function centralDifference(v: Float64Array, j: number, eps: number, f: () => Promise<number>): Promise<number> {
  const keep = v[j]!;
  v[j] = keep + eps;
  const up = await f();
  v[j] = keep - eps;
  const down = await f();
  v[j] = keep;
  return (up - down) / (2 * eps);
}

export interface FdResult { maxAbsErr: number; maxAbsGrad: number; checked: number }

export async function fdCheck(specs: InputSpec[], build: (...xs: Tensor[]) => Tensor, seed = 1, eps = 1e-6): Promise<FdResult> {
  const rand = mulberry32(seed);
  const g = new Graph('float64');
  const xs = specs.map((s, i) => g.input(`x${i}`, s.dtype ?? 'float64', s.declared ?? s.shape));
  const out = build(...xs);
  // The upstream gradient takes the output's declared shape; its run-time size comes from a probe run.
  const w = g.input('w', 'float64', out.shape as Shape);
  const diffIdx = specs.flatMap((s, i) => ((s.dtype ?? 'float64') === 'float64' && s.diff !== false ? [i] : []));
  const grads = gradients([out], [w], diffIdx.map((i) => xs[i]!));
  const outputs: Record<string, Tensor> = { out };
  diffIdx.forEach((i, k) => (outputs[`g${i}`] = grads[k]!));
  const runner = await GraphRunner.create(emit(g, outputs), { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
  const probe = await GraphRunner.create(emit(g, { out }), { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
  const values = specs.map((s) => {
    const n = size(s.shape);
    if (s.dtype === 'int64') return BigInt64Array.from((s.data ?? []).map((v) => BigInt(v)));
    if (s.dtype === 'bool') return Uint8Array.from(s.data ?? []);
    return Float64Array.from(s.data ?? Array.from({ length: n }, () => rand() * 2 - 1));
  });
  type Feeds = Record<string, { data: Float64Array | BigInt64Array | Uint8Array; dims: number[] }>;
  const inputFeeds = (): Feeds => Object.fromEntries(specs.map((s, i) => [`x${i}`, { data: values[i]!, dims: s.shape }]));
  const outDims = [...(await probe.run(inputFeeds()))['out']!.dims];
  await probe.release();
  const wv = Float64Array.from({ length: size(outDims) }, () => rand() * 2 - 1);
  const feeds = (): Feeds => ({ ...inputFeeds(), w: { data: wv, dims: outDims } });
  const loss = async (): Promise<number> => {
    const r = await runner.run(feeds());
    const o = r['out']!.data as Float64Array;
    let l = 0;
    for (let j = 0; j < o.length; j++) l += o[j]! * wv[j]!;
    return l;
  };
  const base = await runner.run(feeds());
  let maxAbsErr = 0, maxAbsGrad = 0, checked = 0;
  for (const i of diffIdx) {
    const analytic = base[`g${i}`]!.data as Float64Array;
    const v = values[i] as Float64Array;
    if (analytic.length !== v.length) throw new Error(`gradient of x${i} has ${analytic.length} elements, input has ${v.length}`);
    for (let j = 0; j < v.length; j++) {
      const numeric = await centralDifference(v, j, eps, loss);
      maxAbsErr = Math.max(maxAbsErr, Math.abs(numeric - analytic[j]!));
      maxAbsGrad = Math.max(maxAbsGrad, Math.abs(analytic[j]!));
      checked++;
    }
  }
  await runner.release();
  return { maxAbsErr, maxAbsGrad, checked };
}
