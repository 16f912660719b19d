// Op builders: each checks its inputs' dtypes and shapes when the graph is built, infers the output shape
// (symbolic dims carried through), and appends one ONNX node (opset 17). Errors name the op and the shapes.
import { ShapeError } from './errors.js';
import { Graph, Tensor, isFloat, type Dim, type DType, type Shape } from './graph.js';

const INT64_MAX = 9223372036854775807n;

function fail(op: string, xs: readonly Tensor[], reason: string): never {
  throw new ShapeError(op, xs.map((x) => x.shape), reason);
}

function axisOf(op: string, xs: readonly Tensor[], axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!Number.isInteger(a) || a < 0 || a >= rank) fail(op, xs, `axis ${axis} out of range for rank ${rank}`);
  return a;
}

/** Numpy broadcasting of static shapes; a named dim only matches itself or 1. */
export function broadcastShapes(op: string, xs: readonly Tensor[], shapes: readonly Shape[]): Dim[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let d: Dim = 1;
    for (const s of shapes) {
      const e = s[i - rank + s.length];
      if (e === undefined || e === 1) continue;
      if (d === 1) d = e;
      else if (d !== e) fail(op, xs, `dims ${d} and ${e} do not broadcast (axis ${i} of the result)`);
    }
    out.push(d);
  }
  return out;
}

const lift = (like: Tensor, v: Tensor | number): Tensor => (typeof v === 'number' ? like.graph.scalar(v, like.dtype) : v);

export function binary(op: 'Add' | 'Sub' | 'Mul' | 'Div' | 'Pow', a: Tensor, bIn: Tensor | number): Tensor {
  const b = lift(a, bIn);
  if (a.dtype !== b.dtype) fail(op, [a, b], `dtypes differ: ${a.dtype} and ${b.dtype}`);
  const shape = broadcastShapes(op, [a, b], [a.shape, b.shape]);
  return a.graph.node(op, [a, b], { outputs: [{ dtype: a.dtype, shape }] })[0]!;
}

export function unary(op: string, x: Tensor): Tensor {
  if (!isFloat(x.dtype)) fail(op, [x], `needs a float tensor, got ${x.dtype}`);
  return x.graph.node(op, [x], { outputs: [{ dtype: x.dtype, shape: x.shape }] })[0]!;
}

export function matmul(a: Tensor, b: Tensor): Tensor {
  const xs = [a, b];
  if (a.dtype !== b.dtype) fail('MatMul', xs, `dtypes differ: ${a.dtype} and ${b.dtype}`);
  if (a.rank < 2 || b.rank < 2) fail('MatMul', xs, 'both operands need rank >= 2');
  const k1 = a.shape[a.rank - 1]!, k2 = b.shape[b.rank - 2]!;
  if (k1 !== k2) fail('MatMul', xs, `inner dims differ: ${k1} vs ${k2}`);
  const batch = broadcastShapes('MatMul', xs, [a.shape.slice(0, -2), b.shape.slice(0, -2)]);
  const shape = [...batch, a.shape[a.rank - 2]!, b.shape[b.rank - 1]!];
  return a.graph.node('MatMul', xs, { outputs: [{ dtype: a.dtype, shape }] })[0]!;
}

function countOf(s: Shape): { n: number; names: string } {
  let n = 1;
  const names: string[] = [];
  for (const d of s) typeof d === 'number' ? (n *= d) : names.push(d);
  return { n, names: names.sort().join('*') };
}

export function reshape(x: Tensor, shape: Shape): Tensor {
  const a = countOf(x.shape), b = countOf(shape);
  if (a.names === b.names && a.n !== b.n) fail('Reshape', [x], `cannot reshape to [${shape.join(',')}]: ${a.n} vs ${b.n} elements`);
  let inferred = 0;
  const code = shape.map((d, i) => {
    if (typeof d === 'number') return d;
    if (x.shape[i] === d) return 0;
    inferred++;
    return -1;
  });
  if (inferred > 1) fail('Reshape', [x], `target [${shape.join(',')}] has ${inferred} named dims that are not at their input position; at most one can be inferred`);
  return x.graph.node('Reshape', [x, x.graph.ints(code)], { outputs: [{ dtype: x.dtype, shape }] })[0]!;
}

export function reshapeLike(g: Tensor, x: Tensor): Tensor {
  return g.graph.node('Reshape', [g, shapeOf(x)], { outputs: [{ dtype: g.dtype, shape: x.shape }] })[0]!;
}

export function transpose(x: Tensor, perm: readonly number[]): Tensor {
  const sorted = [...perm].sort((p, q) => p - q);
  if (perm.length !== x.rank || sorted.some((p, i) => p !== i)) fail('Transpose', [x], `perm [${perm.join(',')}] is not a permutation of rank ${x.rank}`);
  return x.graph.node('Transpose', [x], { attrs: { perm: [...perm] }, outputs: [{ dtype: x.dtype, shape: perm.map((p) => x.shape[p]!) }] })[0]!;
}

function sliceDim(d: Dim, start: number, end: number): Dim | null {
  if (typeof d === 'number') {
    const s = Math.min(Math.max(start < 0 ? start + d : start, 0), d);
    const e = Math.min(Math.max(end < 0 ? end + d : end, 0), d);
    return Math.max(e - s, 0);
  }
  if (start >= 0 && end >= 0 && Number.isFinite(end)) return end - start;
  if (start < 0 && end === Infinity) return -start;
  if (start < 0 && end < 0) return end - start;
  if (start >= 0 && (end === Infinity || end < 0)) {
    const cut = start + (end === Infinity ? 0 : -end);
    return cut === 0 ? d : `${d}-${cut}`;
  }
  return null; // a negative start with a non-negative end on a run-time dim: size unknown
}

/**
 * One axis, step 1; `end` may be Infinity ("to the end"). `known` overrides the inferred shape when the caller
 * knows better (a concat gradient knows each piece's named dim; inference would give 'a+N+b-c').
 */
export function slice(x: Tensor, axisIn: number, start: number, end: number, known?: Shape): Tensor {
  const axis = axisOf('Slice', [x], axisIn, x.rank);
  if (!Number.isInteger(start) || !(Number.isInteger(end) || end === Infinity)) fail('Slice', [x], `bounds must be integers, got ${start}:${end}`);
  const size = sliceDim(x.shape[axis]!, start, end);
  if (size === null) fail('Slice', [x], `size of ${start}:${end} on run-time axis ${axis} is unknown at build time`);
  if (typeof size === 'number' && size <= 0) fail('Slice', [x], `slice ${start}:${end} of axis ${axis} is empty`);
  const shape = known ?? x.shape.map((d, i) => (i === axis ? size : d));
  const g = x.graph;
  const ints = (v: number): Tensor => g.constant(BigInt64Array.of(v === Infinity ? INT64_MAX : BigInt(v)), 'int64', [1]);
  return g.node('Slice', [x, ints(start), ints(end), ints(axis)], { meta: { axis, start, end }, outputs: [{ dtype: x.dtype, shape }] })[0]!;
}

export function reduce(op: 'ReduceSum' | 'ReduceMean', x: Tensor, axesIn: readonly number[], keepdims: boolean): Tensor {
  const axes = [...new Set(axesIn.map((a) => axisOf(op, [x], a, x.rank)))].sort((p, q) => p - q);
  if (axes.length === 0) fail(op, [x], 'needs at least one axis');
  const shape = keepdims ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
  const spec = { meta: { axes, keepdims }, outputs: [{ dtype: x.dtype, shape }] };
  // ReduceSum takes axes as an input from opset 13; ReduceMean only from 18, so it keeps the attribute at 17.
  if (op === 'ReduceSum') return x.graph.node(op, [x, x.graph.ints(axes)], { ...spec, attrs: { keepdims: keepdims ? 1 : 0 } })[0]!;
  return x.graph.node(op, [x], { ...spec, attrs: { axes, keepdims: keepdims ? 1 : 0 } })[0]!;
}

export function softmax(op: 'Softmax' | 'LogSoftmax', x: Tensor, axisIn: number): Tensor {
  if (!isFloat(x.dtype)) fail(op, [x], `needs a float tensor, got ${x.dtype}`);
  const axis = axisOf(op, [x], axisIn, x.rank);
  return x.graph.node(op, [x], { attrs: { axis }, meta: { axis }, outputs: [{ dtype: x.dtype, shape: x.shape }] })[0]!;
}

const isIndex = (t: Tensor): boolean => t.dtype === 'int64' || t.dtype === 'int32';

export function gather(x: Tensor, idx: Tensor, axisIn: number): Tensor {
  if (!isIndex(idx)) fail('Gather', [x, idx], `indices must be int64 or int32, got ${idx.dtype}`);
  const axis = axisOf('Gather', [x, idx], axisIn, x.rank);
  const shape = [...x.shape.slice(0, axis), ...idx.shape, ...x.shape.slice(axis + 1)];
  return x.graph.node('Gather', [x, idx], { attrs: { axis }, meta: { axis }, outputs: [{ dtype: x.dtype, shape }] })[0]!;
}

export function gatherElements(x: Tensor, idx: Tensor, axisIn: number): Tensor {
  if (!isIndex(idx)) fail('GatherElements', [x, idx], `indices must be int64 or int32, got ${idx.dtype}`);
  if (idx.rank !== x.rank) fail('GatherElements', [x, idx], 'data and indices need the same rank');
  const axis = axisOf('GatherElements', [x, idx], axisIn, x.rank);
  x.shape.forEach((d, i) => { if (i !== axis && d !== idx.shape[i]) fail('GatherElements', [x, idx], `dim ${i} differs`); });
  return x.graph.node('GatherElements', [x, idx], { attrs: { axis }, meta: { axis }, outputs: [{ dtype: x.dtype, shape: idx.shape }] })[0]!;
}

export const ONNX_DTYPE: Record<DType, number> = { float32: 1, int32: 6, int64: 7, bool: 9, float64: 11 };

export function cast(x: Tensor, dtype: DType): Tensor {
  return x.graph.node('Cast', [x], { attrs: { to: ONNX_DTYPE[dtype] }, outputs: [{ dtype, shape: x.shape }] })[0]!;
}

export function unsqueeze(x: Tensor, axesIn: readonly number[]): Tensor {
  const rank = x.rank + axesIn.length;
  const axes = axesIn.map((a) => axisOf('Unsqueeze', [x], a, rank)).sort((p, q) => p - q);
  const shape: Dim[] = [...x.shape];
  for (const a of axes) shape.splice(a, 0, 1);
  return x.graph.node('Unsqueeze', [x, x.graph.ints(axes)], { outputs: [{ dtype: x.dtype, shape }] })[0]!;
}

export function squeeze(x: Tensor, axesIn: readonly number[]): Tensor {
  const axes = axesIn.map((a) => axisOf('Squeeze', [x], a, x.rank));
  for (const a of axes) if (x.shape[a] !== 1) fail('Squeeze', [x], `axis ${a} has size ${x.shape[a]}, not 1`);
  return x.graph.node('Squeeze', [x, x.graph.ints(axes)], { outputs: [{ dtype: x.dtype, shape: x.shape.filter((_, i) => !axes.includes(i)) }] })[0]!;
}

export function expand(x: Tensor, shape: Shape, runtime?: Tensor): Tensor {
  const out = broadcastShapes('Expand', [x], [x.shape, shape]);
  let target = runtime;
  if (!target) {
    if (shape.some((d) => typeof d !== 'number')) fail('Expand', [x], `target [${shape.join(',')}] has named dims; pass its run-time shape tensor`);
    target = x.graph.ints(shape as number[]);
  }
  return x.graph.node('Expand', [x, target], { outputs: [{ dtype: x.dtype, shape: out }] })[0]!;
}

export function shapeOf(x: Tensor): Tensor {
  return x.graph.node('Shape', [x], { outputs: [{ dtype: 'int64', shape: [x.rank] }] })[0]!;
}

export function concat(xs: readonly Tensor[], axisIn: number): Tensor {
  const first = xs[0];
  if (!first) throw new ShapeError('Concat', [], 'needs at least one input');
  const axis = axisOf('Concat', xs, axisIn, first.rank);
  for (const x of xs) {
    if (x.dtype !== first.dtype || x.rank !== first.rank) fail('Concat', xs, 'inputs need the same dtype and rank');
    x.shape.forEach((d, i) => { if (i !== axis && d !== first.shape[i]) fail('Concat', xs, `dim ${i} differs`); });
  }
  const dims = xs.map((x) => x.shape[axis]!);
  const joined: Dim = dims.every((d) => typeof d === 'number') ? (dims as number[]).reduce((p, q) => p + q, 0) : dims.join('+');
  const shape = first.shape.map((d, i) => (i === axis ? joined : d));
  return first.graph.node('Concat', xs, { attrs: { axis }, meta: { axis }, outputs: [{ dtype: first.dtype, shape }] })[0]!;
}

export function where(c: Tensor, aIn: Tensor | number, bIn: Tensor | number): Tensor {
  const g: Graph = c.graph;
  const a = typeof aIn === 'number' ? (typeof bIn === 'number' ? g.scalar(aIn) : lift(bIn, aIn)) : aIn;
  const b = lift(a, bIn);
  if (c.dtype !== 'bool') fail('Where', [c, a, b], `condition must be bool, got ${c.dtype}`);
  if (a.dtype !== b.dtype) fail('Where', [c, a, b], `branch dtypes differ: ${a.dtype} and ${b.dtype}`);
  const shape = broadcastShapes('Where', [c, a, b], [c.shape, a.shape, b.shape]);
  return g.node('Where', [c, a, b], { outputs: [{ dtype: a.dtype, shape }] })[0]!;
}

// ---- ops that only gradients use (they have no rules of their own)

export function pad(x: Tensor, before: readonly number[], after: readonly number[], shape: Shape): Tensor {
  return x.graph.node('Pad', [x, x.graph.ints([...before, ...after])], { outputs: [{ dtype: x.dtype, shape }] })[0]!;
}

export function scatterNDAdd(data: Tensor, indices: Tensor, updates: Tensor): Tensor {
  return data.graph.node('ScatterND', [data, indices, updates], { attrs: { reduction: 'add' }, outputs: [{ dtype: data.dtype, shape: data.shape }] })[0]!;
}

export function scatterElementsAdd(data: Tensor, indices: Tensor, updates: Tensor, axis: number): Tensor {
  return data.graph.node('ScatterElements', [data, indices, updates], { attrs: { axis, reduction: 'add' }, outputs: [{ dtype: data.dtype, shape: data.shape }] })[0]!;
}
