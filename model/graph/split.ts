// Cuts a graph whose backward part hangs off seed inputs (dlogp) into two ONNX graphs, as PyTorch's saved tensors do:
// the forward half computes its outputs plus every tensor the backward half reads (the cut), the backward half takes
// those as inputs. Run one after the other they compute exactly the one-piece graph, but a caller can look at the
// forward's outputs before it chooses the seeds (the learner's dJ/dlogπ depends on logπ), so no second forward runs.
import { topoOrder } from './autodiff.js';
import { emit, type CompiledGraph } from './emit.js';
import { GraphSplitError } from './errors.js';
import type { Dim, Graph, Node, Tensor } from './graph.js';

export interface SplitGraphs {
  /** Inputs: the graph inputs the forward outputs need; outputs: the forward outputs, then `saved.<n>`. */
  forward: CompiledGraph;
  /** Inputs: the graph inputs it reads (seeds among them), then `saved.<n>`; outputs: the backward outputs. */
  backward: CompiledGraph;
  /** Names of the cut tensors, `saved.0` ..., in the forward's topological order (stable for one graph definition). */
  saved: string[];
}

export interface SplitSpec {
  /** Outputs of the forward half; none may depend on a seed. */
  forward: Record<string, Tensor>;
  /** Outputs of the backward half (gradients); one that does not depend on a seed is passed through the cut. */
  backward: Record<string, Tensor>;
  /** Graph inputs that the backward half starts from (fed only to it). */
  seeds: readonly Tensor[];
  /**
   * Also redo a MatMul (and the Softmax and elementwise ops after it) in the backward half when its output is at
   * least `ratio` times the size of what it reads, sizes taken at `dims` for the named dims: attention's scores are
   * T/D times larger than its saved queries and keys, so recomputing them beats moving them out and back in.
   */
  expanding?: { ratio: number; dims: Readonly<Record<string, number>> };
}

/** Throws GraphSplitError for a seed that is not an input of `graph`, or a forward output that depends on a seed. */
export function splitGraph(graph: Graph, spec: SplitSpec, name = 'spade'): SplitGraphs {
  for (const s of spec.seeds) {
    if (s.graph !== graph || s.producer !== null || !graph.inputs.includes(s)) throw new GraphSplitError(`seed ${s.name} is not an input of this graph`, { seed: s.name });
  }
  const all = [...Object.values(spec.forward), ...Object.values(spec.backward)];
  // A node is backward when any input is a seed or a backward node's output.
  const late = new Set<Tensor>(spec.seeds);
  const backwardNodes = new Set<Node>();
  for (const n of topoOrder(all)) {
    if (!n.inputs.some((i) => late.has(i))) continue;
    backwardNodes.add(n);
    for (const o of n.outputs) late.add(o);
  }
  for (const [k, t] of Object.entries(spec.forward)) {
    if (late.has(t)) throw new GraphSplitError(`forward output ${k} depends on a seed (${spec.seeds.map((s) => s.name).join(', ')})`, { output: k });
  }
  const cut = rematerialise(cutOf(Object.values(spec.backward), backwardNodes), backwardNodes, Object.values(spec.backward), spec.expanding);
  // Forward topological order, so the numbering follows the graph definition rather than Set insertion by use.
  const position = new Map(topoOrder([...cut]).map((n, k) => [n, k]));
  const ordered = [...cut].sort((a, b) => position.get(a.producer!)! - position.get(b.producer!)! || a.index - b.index);
  const leaves = new Map(ordered.map((t, k) => [t, `saved.${k}`]));
  const savedOut: Record<string, Tensor> = {};
  for (const [t, n] of leaves) savedOut[n] = t;
  return {
    forward: emit(graph, { ...spec.forward, ...savedOut }, `${name}-forward`),
    backward: emit(graph, spec.backward, `${name}-backward`, leaves),
    saved: [...leaves.values()],
  };
}

/** Tensors computed by forward nodes (those not in `backwardNodes`) that a backward node reads or that a backward output is. */
function cutOf(outputs: readonly Tensor[], backwardNodes: ReadonlySet<Node>): Set<Tensor> {
  const cut = new Set<Tensor>();
  const early = (t: Tensor): boolean => t.producer !== null && !backwardNodes.has(t.producer);
  for (const n of topoOrder(outputs)) {
    if (backwardNodes.has(n)) for (const i of n.inputs) if (early(i)) cut.add(i);
  }
  for (const t of outputs) if (early(t)) cut.add(t);
  return cut;
}

/** Ops that only move or view data: saving their input instead is never larger, and redoing them costs a copy at most. */
const MOVES = new Set(['Transpose', 'Reshape', 'Unsqueeze', 'Squeeze', 'Expand', 'Identity']);
/** Elementwise ops, worth redoing in the backward half when what they read is there anyway (exp of a saved log-softmax). */
const ELEMENTWISE = new Set(['Exp', 'Neg', 'Sigmoid', 'Tanh', 'Sqrt', 'Reciprocal', 'Log', 'Cast', 'Add', 'Sub', 'Mul', 'Div']);

/**
 * Moves the producers of cut tensors into the backward half where that shrinks what is saved: a rule's transposed
 * operand (the walker writes dB = Aᵀ·g with Aᵀ a node of its own) would otherwise be saved beside the untransposed
 * tensor, doubling the attention probabilities, and SwiGLU's silu(h)·u and sigmoid(h)·(1 − sigmoid(h)) beside h and
 * u. An elementwise node moves only when what it reads is a leaf, saved, redone, or redoable the same way (a chain
 * such as 1 − sigmoid(h)), so moves never grow the cut in the end: each costs one elementwise pass in the backward
 * half and saves a tensor. Grows `backwardNodes`; returns the new cut.
 */
function rematerialise(cut: Set<Tensor>, backwardNodes: Set<Node>, outputs: readonly Tensor[], expanding?: SplitSpec['expanding']): Set<Tensor> {
  const size = (t: Tensor): number => t.shape.reduce<number>((n, d) => n * dimSize(d, expanding?.dims ?? {}), 1);
  const redoOp = (p: Node): boolean =>
    ELEMENTWISE.has(p.op) || (expanding !== undefined && (MOVES.has(p.op) || p.op === 'Softmax'
      || (p.op === 'MatMul' && size(p.outputs[0]!) >= expanding.ratio * p.inputs.reduce((n, i) => n + size(i), 0))));
  for (;;) {
    const memo = new Map<Node, boolean>();
    const redoable = (p: Node): boolean => {
      let r = memo.get(p);
      if (r === undefined) {
        memo.set(p, false); // a DAG has no cycles; this only stops a revisit while p is being decided
        // With `expanding`, an input far smaller than the node's output may join the cut (attention's causal bias).
        const small = (t: Tensor): boolean => expanding !== undefined && size(t) * expanding.ratio <= size(p.outputs[0]!);
        r = redoOp(p) && p.inputs.every((t) => t.producer === null || cut.has(t) || backwardNodes.has(t.producer) || small(t) || redoable(t.producer));
        memo.set(p, r);
      }
      return r;
    };
    // The next round's cut holds the inputs a moved node could not read yet; they are redoable in turn.
    const movable = [...cut].map((t) => t.producer!).filter((p) => MOVES.has(p.op) || redoable(p));
    if (movable.length === 0) return cut;
    for (const p of movable) backwardNodes.add(p);
    cut = cutOf(outputs, backwardNodes);
  }
}

/** A dim's size: a number, a name in `dims`, or `name±k` and products of those (as ops.ts writes 'T-1', 'B*T'); else 1. */
function dimSize(d: Dim, dims: Readonly<Record<string, number>>): number {
  if (typeof d === 'number') return d;
  return d.split('*').reduce((n, f) => {
    const m = /^([A-Za-z_]\w*)([+-]\d+)?$/.exec(f.trim());
    return n * (m ? Math.max(1, (dims[m[1]!] ?? 1) + Number(m[2] ?? 0)) : Number(f) || 1);
  }, 1);
}
