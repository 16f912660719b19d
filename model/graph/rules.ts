// One vector-Jacobian rule per primitive op. A rule gets the upstream gradient g, the op's inputs, its output
// and node, and returns one entry per input (null: no gradient). The walker un-broadcasts and accumulates.
import { isFloat, where, type Node, type Tensor } from './graph.js';
import { concatGrad, gatherElementsGrad, gatherGrad, matmulGradB, reduceGrad, sliceGrad } from './vjp-helpers.js';

export type VjpRule = (g: Tensor, inputs: readonly Tensor[], out: Tensor, node: Node) => (Tensor | null)[];

const axis = (n: Node): number => (n.meta as { axis: number }).axis;
const inverse = (perm: readonly number[]): number[] => perm.map((_, i) => perm.indexOf(i));

export const Add: VjpRule = (g) => [g, g];
export const Sub: VjpRule = (g) => [g, g.neg()];
export const Mul: VjpRule = (g, [a, b]) => [g.mul(b!), g.mul(a!)];
export const Div: VjpRule = (g, [, b], y) => [g.div(b!), g.mul(y).div(b!).neg()];
export const Pow: VjpRule = (g, [a, b], y) => [g.mul(b!).mul(a!.pow(b!.sub(1))), g.mul(y).mul(a!.log())];
export const Neg: VjpRule = (g) => [g.neg()];
export const Exp: VjpRule = (g, _, y) => [g.mul(y)];
export const Log: VjpRule = (g, [x]) => [g.div(x!)];
export const Sqrt: VjpRule = (g, _, y) => [g.div(y.mul(2))];
export const Reciprocal: VjpRule = (g, _, y) => [g.mul(y.mul(y)).neg()];
export const Sigmoid: VjpRule = (g, _, y) => [g.mul(y.mul(y.neg().add(1)))];
export const Tanh: VjpRule = (g, _, y) => [g.mul(y.mul(y).neg().add(1))];
export const MatMul: VjpRule = (g, [a, b]) => [g.matmul(b!.mT()), matmulGradB(a!, b!, g)];
export const Transpose: VjpRule = (g, _, __, n) => [g.transpose(inverse(n.attrs['perm'] as number[]))];
export const Reshape: VjpRule = (g, [x]) => [g.reshapeLike(x!), null];
export const Unsqueeze: VjpRule = (g, [x]) => [g.reshapeLike(x!), null];
export const Squeeze: VjpRule = (g, [x]) => [g.reshapeLike(x!), null];
export const Expand: VjpRule = (g) => [g, null];
export const Identity: VjpRule = (g) => [g];
export const Slice: VjpRule = (g, [x], _, n) => [sliceGrad(g, x!, n), null, null, null];
export const Concat: VjpRule = (g, xs, _, n) => concatGrad(g, xs, n);
export const Softmax: VjpRule = (g, _, y, n) => [y.mul(g.sub(g.mul(y).sum([axis(n)], true)))];
export const LogSoftmax: VjpRule = (g, _, y, n) => [g.sub(y.exp().mul(g.sum([axis(n)], true)))];
export const ReduceSum: VjpRule = (g, [x], _, n) => [reduceGrad(g, x!, n, false), null];
export const ReduceMean: VjpRule = (g, [x], _, n) => [reduceGrad(g, x!, n, true)];
export const Gather: VjpRule = (g, [x, i], _, n) => [gatherGrad(g, x!, i!, n), null];
export const GatherElements: VjpRule = (g, [x, i], _, n) => [gatherElementsGrad(g, x!, i!, n), null];
export const Where: VjpRule = (g, [c]) => [null, where(c!, g, 0), where(c!, 0, g)];
export const Cast: VjpRule = (g, [x]) => [isFloat(x!.dtype) ? g.cast(x!.dtype) : null];

export const RULES: Readonly<Record<string, VjpRule>> = {
  Add, Sub, Mul, Div, Pow, Neg, Exp, Log, Sqrt, Reciprocal, Sigmoid, Tanh, MatMul, Transpose, Reshape, Unsqueeze,
  Squeeze, Expand, Identity, Slice, Concat, Softmax, LogSoftmax, ReduceSum, ReduceMean, Gather, GatherElements, Where, Cast,
};
