// The graph IR: a Graph owns nodes and leaf tensors (inputs, constants); a Tensor is a symbolic value
// with a static dtype and shape (numbers, or names for dims known only at run time such as 'B', 'T').
import * as ops from './ops.js';

export type DType = 'float32' | 'float64' | 'int64' | 'int32' | 'bool';
export type Dim = number | string;
export type Shape = readonly Dim[];
/** Attributes that are emitted into ONNX: integers, integer lists, strings. */
export type AttrValue = number | readonly number[] | string;
export type TypedArray = Float32Array | Float64Array | BigInt64Array | Int32Array | Uint8Array;

export interface Node {
  readonly id: number;
  readonly op: string;
  readonly inputs: readonly Tensor[];
  readonly attrs: Readonly<Record<string, AttrValue>>;
  /** Build-time facts the rules need but ONNX does not carry as attributes (slice bounds, reduce axes). */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly outputs: Tensor[];
}

export interface NodeSpec {
  attrs?: Record<string, AttrValue>;
  meta?: Record<string, unknown>;
  outputs: { dtype: DType; shape: Shape }[];
}

export const isFloat = (d: DType): boolean => d === 'float32' || d === 'float64';

export class Graph {
  readonly nodes: Node[] = [];
  readonly inputs: Tensor[] = [];
  readonly constants: Tensor[] = [];
  private nextId = 0;
  private readonly scalarCache = new Map<string, Tensor>();

  /** `float` is the dtype of constants made from plain numbers (float32 in production, float64 for gradient checks). */
  constructor(readonly float: 'float32' | 'float64' = 'float32') {}

  input(name: string, dtype: DType, shape: Shape): Tensor {
    const t = new Tensor(this, name, dtype, shape, null, 0);
    this.inputs.push(t);
    return t;
  }

  constant(value: TypedArray, dtype: DType, shape: Shape): Tensor {
    const t = new Tensor(this, `const_${this.nextId++}`, dtype, shape, null, 0, value);
    this.constants.push(t);
    return t;
  }

  /** A rank-0 constant, shared between uses of the same value and dtype. */
  scalar(v: number, dtype: DType = this.float): Tensor {
    const key = `${dtype}:${v}`;
    let t = this.scalarCache.get(key);
    if (!t) {
      t = this.constant(makeArray(dtype, [v]), dtype, []);
      this.scalarCache.set(key, t);
    }
    return t;
  }

  ints(values: readonly number[]): Tensor {
    return this.constant(makeArray('int64', values), 'int64', [values.length]);
  }

  /** Appends a node; shape inference is the caller's job (ops.ts), so this is the raw escape hatch. */
  node(op: string, inputs: readonly Tensor[], spec: NodeSpec): Tensor[] {
    for (const i of inputs) if (i.graph !== this) throw new TypeError(`${op}: input ${i.name} belongs to another graph`);
    const id = this.nextId++;
    const node: Node = { id, op, inputs, attrs: spec.attrs ?? {}, meta: spec.meta ?? {}, outputs: [] };
    spec.outputs.forEach((o, k) => node.outputs.push(new Tensor(this, `${op.toLowerCase()}_${id}_${k}`, o.dtype, o.shape, node, k)));
    this.nodes.push(node);
    return node.outputs;
  }
}

export function makeArray(dtype: DType, values: readonly number[]): TypedArray {
  switch (dtype) {
    case 'float32': return Float32Array.from(values);
    case 'float64': return Float64Array.from(values);
    case 'int64': return BigInt64Array.from(values.map((v) => BigInt(v)));
    case 'int32': return Int32Array.from(values);
    case 'bool': return Uint8Array.from(values);
  }
}

/** A symbolic value. Methods build nodes in the owning graph; numbers become scalar constants of the tensor's dtype. */
export class Tensor {
  constructor(
    readonly graph: Graph,
    readonly name: string,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly producer: Node | null,
    readonly index: number,
    readonly value?: TypedArray,
  ) {}

  get rank(): number { return this.shape.length; }

  add(o: Tensor | number): Tensor { return ops.binary('Add', this, o); }
  sub(o: Tensor | number): Tensor { return ops.binary('Sub', this, o); }
  mul(o: Tensor | number): Tensor { return ops.binary('Mul', this, o); }
  div(o: Tensor | number): Tensor { return ops.binary('Div', this, o); }
  pow(o: Tensor | number): Tensor { return ops.binary('Pow', this, o); }
  matmul(o: Tensor): Tensor { return ops.matmul(this, o); }
  neg(): Tensor { return ops.unary('Neg', this); }
  exp(): Tensor { return ops.unary('Exp', this); }
  log(): Tensor { return ops.unary('Log', this); }
  sqrt(): Tensor { return ops.unary('Sqrt', this); }
  reciprocal(): Tensor { return ops.unary('Reciprocal', this); }
  sigmoid(): Tensor { return ops.unary('Sigmoid', this); }
  tanh(): Tensor { return ops.unary('Tanh', this); }
  /** Static target shape; a named dim is kept from the same position of the input or inferred (-1, at most one). */
  reshape(shape: Shape): Tensor { return ops.reshape(this, shape); }
  /** Reshape to another tensor's run-time shape (used by gradients, where dims may be symbolic). */
  reshapeLike(x: Tensor): Tensor { return ops.reshapeLike(this, x); }
  transpose(perm: readonly number[]): Tensor { return ops.transpose(this, perm); }
  /** Swaps the last two axes. */
  mT(): Tensor { const p = [...this.shape.keys()]; p.splice(-2, 2, this.rank - 1, this.rank - 2); return this.transpose(p); }
  /** `x[..., start:end, ...]` on one axis, step 1; negative bounds count from the end as in Python. */
  slice(axis: number, start: number, end: number): Tensor { return ops.slice(this, axis, start, end); }
  sum(axes: readonly number[], keepdims = false): Tensor { return ops.reduce('ReduceSum', this, axes, keepdims); }
  mean(axes: readonly number[], keepdims = false): Tensor { return ops.reduce('ReduceMean', this, axes, keepdims); }
  softmax(axis = -1): Tensor { return ops.softmax('Softmax', this, axis); }
  logSoftmax(axis = -1): Tensor { return ops.softmax('LogSoftmax', this, axis); }
  gather(indices: Tensor, axis = 0): Tensor { return ops.gather(this, indices, axis); }
  gatherElements(indices: Tensor, axis: number): Tensor { return ops.gatherElements(this, indices, axis); }
  cast(dtype: DType): Tensor { return ops.cast(this, dtype); }
  unsqueeze(axes: readonly number[]): Tensor { return ops.unsqueeze(this, axes); }
  squeeze(axes: readonly number[]): Tensor { return ops.squeeze(this, axes); }
  /** Broadcasts to a static shape, or to a run-time shape tensor with its static shape given. */
  expand(shape: Shape, runtime?: Tensor): Tensor { return ops.expand(this, shape, runtime); }
  shapeOf(): Tensor { return ops.shapeOf(this); }
  zerosLike(): Tensor { return ops.expand(this.graph.scalar(0, this.dtype), this.shape, this.shapeOf()); }
}

export const concat = (xs: readonly Tensor[], axis: number): Tensor => ops.concat(xs, axis);
export const where = (cond: Tensor, a: Tensor | number, b: Tensor | number): Tensor => ops.where(cond, a, b);
