// The few gradient pieces too long for a one-line rule: slice/concat bounds, scatter-add for gathers,
// weight gradients of batched MatMul, and reduce-mean counts over run-time dims.
import { VjpContractError } from './errors.js';
import { type Node, type Tensor } from './graph.js';
import { pad, scatterElementsAdd, scatterNDAdd, slice } from './ops.js';

/** dB for A·B where B is a 2-D weight and A is batched: one [K,M]x[M,N] product instead of a reduce over batch. */
export function matmulGradB(a: Tensor, b: Tensor, g: Tensor): Tensor {
  if (b.rank !== 2 || a.rank <= 2) return a.mT().matmul(g);
  const rows = a.shape.slice(0, -1).join('*');
  const a2 = a.reshape([rows, a.shape[a.rank - 1]!]); // (N, K)
  const g2 = g.reshape([rows, g.shape[g.rank - 1]!]); // (N, M)
  return a2.mT().matmul(g2); // (K, M)
}

/** The gradient of a slice is the upstream gradient padded back with zeros; the pads must be known at build time. */
export function sliceGrad(g: Tensor, x: Tensor, node: Node): Tensor {
  const { axis, start, end } = node.meta as { axis: number; start: number; end: number };
  const d = x.shape[axis]!;
  const need = (): number => {
    if (typeof d !== 'number') throw new VjpContractError('Slice', `pads for ${start}:${end} on run-time axis ${axis} (${d}) are unknown at build time`);
    return d;
  };
  const before = start >= 0 ? start : need() + start;
  const after = end === Infinity ? 0 : end < 0 ? -end : Math.max(need() - end, 0);
  const zeros = x.shape.map(() => 0);
  const b = [...zeros], a = [...zeros];
  b[axis] = before;
  a[axis] = after;
  return pad(g, b, a, x.shape);
}

/** Splits the upstream gradient back into the concatenated pieces; at most one piece may have a run-time size. */
export function concatGrad(g: Tensor, xs: readonly Tensor[], node: Node): Tensor[] {
  const axis = (node.meta as { axis: number }).axis;
  const sizes = xs.map((x) => x.shape[axis]!);
  const unknown = sizes.filter((s) => typeof s !== 'number').length;
  if (unknown > 1) throw new VjpContractError('Concat', `more than one piece has a run-time size on axis ${axis}`);
  const out: Tensor[] = [];
  let off = 0, i = 0;
  for (; i < sizes.length && typeof sizes[i] === 'number'; i++) {
    out.push(slice(g, axis, off, off + (sizes[i] as number)));
    off += sizes[i] as number;
  }
  if (i === sizes.length) return out;
  const tail = (sizes.slice(i + 1) as number[]).reduce((p, q) => p + q, 0);
  out.push(slice(g, axis, off, tail === 0 ? Infinity : -tail, xs[i]!.shape)); // the run-time sized piece
  let back = tail;
  for (i++; i < sizes.length; i++) {
    const s = sizes[i] as number;
    out.push(slice(g, axis, -back, back - s === 0 ? Infinity : -(back - s)));
    back -= s;
  }
  return out;
}

export function gatherGrad(g: Tensor, x: Tensor, idx: Tensor, node: Node): Tensor {
  if ((node.meta as { axis: number }).axis !== 0) throw new VjpContractError('Gather', 'only axis 0 has a gradient');
  const i64 = idx.dtype === 'int64' ? idx : idx.cast('int64');
  return scatterNDAdd(x.zerosLike(), i64.unsqueeze([-1]), g); // (V, C) += rows of g at idx
}

export function gatherElementsGrad(g: Tensor, x: Tensor, idx: Tensor, node: Node): Tensor {
  return scatterElementsAdd(x.zerosLike(), idx, g, (node.meta as { axis: number }).axis);
}

/** Broadcasts a reduced gradient back over the reduced axes (the walker never needs to un-reduce). */
export function reduceGrad(g: Tensor, x: Tensor, node: Node, mean: boolean): Tensor {
  const { axes, keepdims } = node.meta as { axes: number[]; keepdims: boolean };
  const kept = keepdims ? g : g.unsqueeze(axes);
  const full = kept.expand(x.shape, x.shapeOf());
  return mean ? full.div(countOf(x, axes)) : full;
}

function countOf(x: Tensor, axes: readonly number[]): Tensor | number {
  const dims = axes.map((a) => x.shape[a]!);
  if (dims.every((d) => typeof d === 'number')) return (dims as number[]).reduce((p, q) => p * q, 1);
  const gr = x.graph;
  const picked = x.shapeOf().gather(gr.ints(axes)); // (len(axes),) int64
  const n = gr.node('ReduceProd', [picked], { attrs: { keepdims: 0 }, outputs: [{ dtype: 'int64', shape: [] }] })[0]!;
  return n.cast(x.dtype);
}
