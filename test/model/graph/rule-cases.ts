// The finite-difference cases of the gradient rules: at least one per rule in the table, with broadcast and rank-0
// shapes, and inputs inside each op's domain.
import { concat, where, type Tensor } from '../../../model/graph/index.js';
import type { InputSpec } from './fd-check.js';

export const pos = (n: number, lo = 0.5): number[] => Array.from({ length: n }, (_, i) => lo + ((i * 7) % 11) / 10);

export const f = (...shape: number[]): InputSpec => ({ shape });

export interface Case { rule: string; name: string; specs: InputSpec[]; build: (...x: Tensor[]) => Tensor; eps?: number; tol?: number }

export const cases: Case[] = [
  { rule: 'Add', name: 'same shape', specs: [f(2, 3), f(2, 3)], build: (a, b) => a!.add(b!) },
  { rule: 'Add', name: 'broadcast [3,1]+[4]', specs: [f(3, 1), f(4)], build: (a, b) => a!.add(b!) },
  { rule: 'Add', name: 'scalar + [2,3]', specs: [f(), f(2, 3)], build: (a, b) => a!.add(b!) },
  { rule: 'Sub', name: 'broadcast [2,1,3]-[4,1]', specs: [f(2, 1, 3), f(4, 1)], build: (a, b) => a!.sub(b!) },
  { rule: 'Mul', name: 'broadcast [2,3]*[3]', specs: [f(2, 3), f(3)], build: (a, b) => a!.mul(b!) },
  { rule: 'Mul', name: 'scalar * scalar', specs: [f(), f()], build: (a, b) => a!.mul(b!) },
  { rule: 'Div', name: 'broadcast [2,3]/[2,1]', specs: [f(2, 3), { shape: [2, 1], data: pos(2) }], build: (a, b) => a!.div(b!) },
  { rule: 'Pow', name: 'base and exponent', specs: [{ shape: [2, 3], data: pos(6) }, f(3)], build: (a, b) => a!.pow(b!) },
  { rule: 'Pow', name: 'constant exponent', specs: [{ shape: [4], data: pos(4) }], build: (a) => a!.pow(3) },
  { rule: 'Neg', name: '[2,3]', specs: [f(2, 3)], build: (a) => a!.neg() },
  { rule: 'Exp', name: '[2,3]', specs: [f(2, 3)], build: (a) => a!.exp() },
  { rule: 'Log', name: '[5]', specs: [{ shape: [5], data: pos(5) }], build: (a) => a!.log() },
  { rule: 'Sqrt', name: 'scalar', specs: [{ shape: [], data: [1.7] }], build: (a) => a!.sqrt() },
  { rule: 'Reciprocal', name: '[4]', specs: [{ shape: [4], data: pos(4) }], build: (a) => a!.reciprocal() },
  { rule: 'Sigmoid', name: '[2,3]', specs: [f(2, 3)], build: (a) => a!.sigmoid() },
  { rule: 'Tanh', name: '[2,3]', specs: [f(2, 3)], build: (a) => a!.tanh() },
  { rule: 'MatMul', name: '2-D', specs: [f(2, 3), f(3, 4)], build: (a, b) => a!.matmul(b!) },
  { rule: 'MatMul', name: 'batched x weight', specs: [f(2, 3, 4), f(4, 5)], build: (a, b) => a!.matmul(b!) },
  { rule: 'MatMul', name: 'broadcast batch [2,1,3,4]x[3,4,2]', specs: [f(2, 1, 3, 4), f(3, 4, 2)], build: (a, b) => a!.matmul(b!) },
  { rule: 'Transpose', name: '[2,3,4] perm 2,0,1', specs: [f(2, 3, 4)], build: (a) => a!.transpose([2, 0, 1]) },
  { rule: 'Reshape', name: '[2,6] -> [3,4]', specs: [f(2, 6)], build: (a) => a!.reshape([3, 4]) },
  { rule: 'Unsqueeze', name: '[3] -> [1,3,1]', specs: [f(3)], build: (a) => a!.unsqueeze([0, 2]) },
  { rule: 'Squeeze', name: '[1,3,1] -> [3]', specs: [f(1, 3, 1)], build: (a) => a!.squeeze([0, 2]) },
  { rule: 'Expand', name: '[3,1] -> [2,3,4]', specs: [f(3, 1)], build: (a) => a!.expand([2, 3, 4]) },
  { rule: 'Identity', name: '[3]', specs: [f(3)], build: (a) => a!.graph.node('Identity', [a!], { outputs: [{ dtype: a!.dtype, shape: a!.shape }] })[0]! },
  { rule: 'Slice', name: 'middle of axis 1', specs: [f(2, 5)], build: (a) => a!.slice(1, 1, 4) },
  { rule: 'Slice', name: 'negative bounds', specs: [f(4, 3)], build: (a) => a!.slice(0, -3, -1) },
  { rule: 'Slice', name: 'to the end', specs: [f(4, 3)], build: (a) => a!.slice(-1, 1, Infinity) },
  { rule: 'Slice', name: 'x[:-1] on a run-time axis', specs: [{ shape: [4, 3], declared: ['N', 3] }], build: (a) => a!.slice(0, 0, -1) },
  { rule: 'Slice', name: 'x[1:] on a run-time axis', specs: [{ shape: [4, 3], declared: ['N', 3] }], build: (a) => a!.slice(0, 1, Infinity) },
  { rule: 'Concat', name: 'a run-time piece between static ones', specs: [f(1, 2), { shape: [3, 2], declared: ['N', 2] }, f(2, 2)], build: (a, b, c) => concat([a!, b!, c!], 0) },
  { rule: 'ReduceMean', name: 'over a run-time axis', specs: [{ shape: [5, 2], declared: ['N', 2] }], build: (a) => a!.mean([0]) },
  { rule: 'Reshape', name: 'run-time dims kept', specs: [{ shape: [3, 4], declared: ['N', 4] }], build: (a) => a!.reshape(['N', 2, 2]) },
  { rule: 'Concat', name: 'three pieces on axis 1', specs: [f(2, 1), f(2, 3), f(2, 2)], build: (a, b, c) => concat([a!, b!, c!], 1) },
  { rule: 'Softmax', name: 'last axis', specs: [f(2, 4)], build: (a) => a!.softmax(-1) },
  { rule: 'Softmax', name: 'axis 0', specs: [f(3, 2)], build: (a) => a!.softmax(0) },
  { rule: 'LogSoftmax', name: 'last axis', specs: [f(2, 5)], build: (a) => a!.logSoftmax(-1) },
  { rule: 'ReduceSum', name: 'axis 1, keepdims', specs: [f(2, 3, 2)], build: (a) => a!.sum([1], true) },
  { rule: 'ReduceSum', name: 'all axes to scalar', specs: [f(2, 3)], build: (a) => a!.sum([0, 1]) },
  { rule: 'ReduceMean', name: 'last axis', specs: [f(2, 3)], build: (a) => a!.mean([-1]) },
  { rule: 'ReduceMean', name: 'axes 0,2 keepdims', specs: [f(2, 3, 2)], build: (a) => a!.mean([0, 2], true) },
  { rule: 'Gather', name: 'rows with repeats', specs: [f(4, 3), { shape: [2, 3], dtype: 'int64', data: [0, 2, 2, 3, 0, 0] }], build: (a, i) => a!.gather(i!, 0) },
  { rule: 'GatherElements', name: 'last axis', specs: [f(2, 4), { shape: [2, 2], dtype: 'int64', data: [1, 1, 3, 0] }], build: (a, i) => a!.gatherElements(i!, 1) },
  { rule: 'Where', name: 'broadcast branches', specs: [{ shape: [2, 3], dtype: 'bool', data: [1, 0, 1, 0, 0, 1] }, f(3), f(2, 1)], build: (c, a, b) => where(c!, a!, b!) },
  // Through float32 and back: the rule is exact but float32 rounding needs a wide step and a looser bound.
  { rule: 'Cast', name: 'float64 -> float32 -> float64', specs: [f(3)], build: (a) => a!.cast('float32').cast('float64'), eps: 1e-2, tol: 1e-4 },
];
