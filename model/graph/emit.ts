// Serialises the part of a Graph that the named outputs depend on as an ONNX model (opset 17):
// only reachable nodes, inputs and constants are emitted, so unused gradient branches cost nothing.
import onnxProto from 'onnx-proto';
import { topoOrder } from './autodiff.js';
import { GraphError } from './errors.js';
import { type AttrValue, type Graph, type Shape, type Tensor, type DType } from './graph.js';
import { ONNX_DTYPE } from './ops.js';

const { onnx } = onnxProto;
export const OPSET = 17;

export interface TensorInfo { name: string; dtype: DType; shape: Shape }

/** An emitted model plus the signature the runner checks feeds against. */
export interface CompiledGraph {
  bytes: Uint8Array;
  inputs: TensorInfo[];
  outputs: TensorInfo[];
  nodeCount: number;
}

function valueInfo(name: string, dtype: DType, shape?: Shape): onnxProto.onnx.IValueInfoProto {
  const tensorType: onnxProto.onnx.TypeProto.ITensor = { elemType: ONNX_DTYPE[dtype] };
  if (shape) tensorType.shape = { dim: shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) };
  return { name, type: { tensorType } };
}

function attribute(name: string, v: AttrValue): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof v === 'string') return { name, type: T.STRING, s: new TextEncoder().encode(v) };
  if (typeof v === 'number') return { name, type: T.INT, i: v };
  return { name, type: T.INTS, ints: [...v] };
}

function initializer(t: Tensor): onnxProto.onnx.ITensorProto {
  const v = t.value!;
  // rawData is little-endian bytes of the array, which is what typed arrays hold on every platform node runs on.
  return { name: t.name, dataType: ONNX_DTYPE[t.dtype], dims: t.shape as number[], rawData: new Uint8Array(v.buffer, v.byteOffset, v.byteLength) };
}

/**
 * `leaves`: computed tensors fed as graph inputs under the given names instead of computed (the backward half of a
 * split graph takes the forward half's saved tensors this way, split.ts); they come after the graph's own inputs.
 */
export function emit(graph: Graph, outputs: Record<string, Tensor>, name = 'spade', leaves: ReadonlyMap<Tensor, string> = new Map()): CompiledGraph {
  const outTensors = Object.values(outputs);
  const nodes = topoOrder(outTensors, new Set(leaves.keys()));
  const used = new Set<Tensor>(outTensors);
  for (const n of nodes) for (const i of n.inputs) used.add(i);
  // An output takes over its tensor's name; a tensor that is a leaf or already named gets an Identity node instead.
  const names = new Map<Tensor, string>(leaves);
  const aliases: [string, Tensor][] = [];
  for (const [outName, t] of Object.entries(outputs)) {
    if (t.producer && !names.has(t)) names.set(t, outName);
    else aliases.push([outName, t]);
  }
  const nameOf = (t: Tensor): string => names.get(t) ?? t.name;
  const extra: onnxProto.onnx.INodeProto[] = aliases.map(([outName, t]) => ({ opType: 'Identity', input: [nameOf(t)], output: [outName] }));
  const inputs = [...graph.inputs.filter((t) => used.has(t)), ...[...leaves.keys()].filter((t) => used.has(t))];
  const seenNames = new Set<string>();
  for (const t of inputs) {
    const n = nameOf(t);
    if (seenNames.has(n)) throw new GraphError(`two graph inputs are named ${n}`, { code: 'GRAPH_DUPLICATE_INPUT', data: { name: n } });
    seenNames.add(n);
  }
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'spade-graph',
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name,
      input: inputs.map((t) => valueInfo(nameOf(t), t.dtype, t.shape)),
      output: Object.entries(outputs).map(([n, t]) => valueInfo(n, t.dtype)),
      initializer: graph.constants.filter((t) => used.has(t)).map(initializer),
      node: [
        ...nodes.map((n) => ({
          opType: n.op,
          name: `${n.op}_${n.id}`,
          input: n.inputs.map(nameOf),
          output: n.outputs.map(nameOf),
          attribute: Object.entries(n.attrs).map(([k, v]) => attribute(k, v)),
        })),
        ...extra,
      ],
    },
  });
  return {
    bytes: onnx.ModelProto.encode(model).finish(),
    inputs: inputs.map((t) => ({ name: nameOf(t), dtype: t.dtype, shape: t.shape })),
    outputs: Object.entries(outputs).map(([n, t]) => ({ name: n, dtype: t.dtype, shape: t.shape })),
    nodeCount: nodes.length + extra.length,
  };
}
