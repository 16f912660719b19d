// Parity of the training graph on imported models: the gradients of sum(log-probs) for a few tensors per fixture
// (query/key projections, whose rows are permuted on import, biases, q/k norms, the untied head) match the
// float64 PyTorch reference within 1e-4 relative (L2 norm of the difference over the reference's).
import t from 'tap';
import { parameterShapes } from '../../../model/decoder.js';
import { hfTensorName, permuteHeads } from '../../../model/hf-weights.js';
import { loadModel } from '../../../model/load-model.js';
import { ModelSession } from '../../../model/session.js';
import { EXPECTED, FIXTURE_NAMES, fixtureDir } from './fixtures.js';

const relative = (got: ArrayLike<number>, want: readonly number[]): number => {
  let num = 0, den = 0;
  for (let i = 0; i < want.length; i++) {
    num += (got[i]! - want[i]!) ** 2;
    den += want[i]! ** 2;
  }
  return got.length === want.length ? Math.sqrt(num / den) : Infinity;
};

t.test('training-graph gradients of imported models match the reference', async (t) => {
  const tokens = BigInt64Array.from(EXPECTED.tokens.map(BigInt));
  const T = tokens.length;
  let checked = 0;
  for (const name of FIXTURE_NAMES) {
    const m = await loadModel(fixtureDir(name));
    const s = await ModelSession.create(m.model, { graphs: ['train'] });
    const ones = new Float32Array(T - 1).fill(1);
    const { grads } = await s.train({ tokens, batch: 1, time: T, mask: ones, dlogp: ones }, m.params);
    const shapes = parameterShapes(m.model);
    const ours = new Map([...shapes.keys()].map((n) => [hfTensorName(n), n]));
    for (const [hf, want] of Object.entries(EXPECTED.models[name]!.grads)) {
      const n = ours.get(hf)!;
      t.ok(n !== undefined, `${name}: ${hf} is a parameter`);
      let g: Float32Array = Float32Array.from(grads.get(n)!);
      if (/wq|wk|q_norm|k_norm/.test(n)) g = permuteHeads(g, shapes.get(n)![0]!, m.model.headDim, false); // back to HF rows
      const r = relative(g, want);
      t.ok(r <= 1e-4, `${name}: ${hf} relative error ${r.toExponential(2)} <= 1e-4`);
      checked++;
    }
    await s.release();
  }
  t.ok(checked >= 25, `${checked} gradient tensors compared`);
});
