// Reverse-mode autodiff: walks the nodes between the seeded outputs and the requested inputs backwards,
// applies each op's rule, un-broadcasts (ReduceSum over broadcast axes), accumulates, and skips what is not needed.
import { MissingVjpRuleError, VjpContractError } from './errors.js';
import { isFloat, type Node, type Tensor } from './graph.js';
import { RULES, type VjpRule } from './rules.js';

/** Nodes that `outputs` depend on, in topological order (inputs before users); the walk does not go past `stop`. */
export function topoOrder(outputs: readonly Tensor[], stop: ReadonlySet<Tensor> = new Set()): Node[] {
  const order: Node[] = [];
  const seen = new Set<Node>();
  const stack: [Node, number][] = [];
  for (const o of outputs) {
    if (!o.producer || seen.has(o.producer) || stop.has(o)) continue;
    seen.add(o.producer);
    stack.push([o.producer, 0]);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [node, k] = top;
      if (k < node.inputs.length) {
        top[1]++;
        const input = node.inputs[k]!;
        const p = input.producer;
        if (p && !seen.has(p) && !stop.has(input)) { seen.add(p); stack.push([p, 0]); }
      } else {
        stack.pop();
        order.push(node);
      }
    }
  }
  return order;
}

/** Sums g over the axes its input was broadcast along, so the result has exactly `shape`. */
export function unbroadcast(g: Tensor, x: Tensor, op: string): Tensor {
  let r = g;
  const lead = g.rank - x.rank;
  if (lead < 0) throw new VjpContractError(op, `gradient rank ${g.rank} is below input rank ${x.rank}`);
  if (lead > 0) r = r.sum([...Array(lead).keys()], false);
  const axes = x.shape.flatMap((d, i) => (d === 1 && r.shape[i] !== 1 ? [i] : []));
  if (axes.length) r = r.sum(axes, true);
  if (r.shape.some((d, i) => d !== x.shape[i])) {
    throw new VjpContractError(op, `gradient shape [${g.shape.join(',')}] does not reduce to input shape [${x.shape.join(',')}]`);
  }
  return r;
}

/**
 * Gradients of sum_i <outputs[i], seeds[i]> with respect to each of `wrt`. A `wrt` tensor that the outputs do not
 * depend on gets zeros. Nodes off the path between `wrt` and `outputs` are never visited, and rule results for
 * inputs that need no gradient are left unused (emission drops them).
 */
export function gradients(outputs: readonly Tensor[], seeds: readonly Tensor[], wrt: readonly Tensor[], rules: Readonly<Record<string, VjpRule>> = RULES): Tensor[] {
  if (outputs.length !== seeds.length) throw new VjpContractError('gradients', `${outputs.length} outputs but ${seeds.length} seeds`);
  const order = topoOrder(outputs);
  const needs = new Set<Tensor>(wrt);
  for (const n of order) {
    if (!n.inputs.some((i) => needs.has(i))) continue;
    for (const o of n.outputs) if (isFloat(o.dtype)) needs.add(o);
  }
  const grads = new Map<Tensor, Tensor>();
  const accumulate = (t: Tensor, g: Tensor, op: string): void => {
    const r = unbroadcast(g, t, op);
    const prev = grads.get(t);
    grads.set(t, prev ? prev.add(r) : r);
  };
  outputs.forEach((o, i) => {
    const seed = seeds[i]!;
    const same = seed.rank === o.rank && seed.shape.every((d, k) => d === o.shape[k]);
    if (needs.has(o)) accumulate(o, same ? seed : seed.expand(o.shape, o.shapeOf()), 'seed'); // a seed may broadcast
  });
  for (let k = order.length - 1; k >= 0; k--) {
    const node = order[k]!;
    const out = node.outputs[0]!;
    const g = grads.get(out);
    if (!g || !node.inputs.some((i) => needs.has(i))) continue;
    const rule = rules[node.op];
    if (!rule) throw new MissingVjpRuleError(node.op);
    const res = rule(g, node.inputs, out, node);
    if (res.length !== node.inputs.length) {
      throw new VjpContractError(node.op, `returned ${res.length} entries for ${node.inputs.length} inputs`);
    }
    res.forEach((r, i) => {
      const input = node.inputs[i]!;
      if (r && needs.has(input)) accumulate(input, r, node.op);
    });
  }
  return wrt.map((w) => grads.get(w) ?? w.zerosLike());
}
