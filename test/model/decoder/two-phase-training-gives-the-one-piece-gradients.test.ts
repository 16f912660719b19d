// The training graph cut at dlogp (graph/split.ts, ModelSession.forward/backward) computes what the one-piece graph
// computes: log-probs, loss and every parameter gradient, to rounding in float64 and to float32 noise in float32.
import t, { type Test } from 'tap';
import { initParameters, parameterShapes } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';

const TINY: DecoderConfig = { layers: 2, width: 8, heads: 2, kvHeads: 1, contextLength: 8, vocab: 7, ffnHidden: 12 };
const SMALL: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 64, vocab: 50, ffnHidden: 64, qkvBias: true, qkNorm: true };

/** Largest |a − b| over the largest |b|: one relative error for a whole tensor, blind to entries near zero. */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0, scale = 0;
  for (let i = 0; i < b.length; i++) (diff = Math.max(diff, Math.abs(a[i]! - b[i]!))), (scale = Math.max(scale, Math.abs(b[i]!)));
  return diff / scale;
}

async function compare(t: Test, config: DecoderConfig, dtype: 'float32' | 'float64', B: number, T: number, tol: number): Promise<void> {
  const arr = (n: number, f: (i: number) => number): Float32Array | Float64Array => {
    const a = dtype === 'float64' ? new Float64Array(n) : new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = f(i);
    return a;
  };
  const session = await ModelSession.create(config, { dtype, graphs: ['train', 'split'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = new Map([...initParameters(config, 3)].map(([n, w]) => [n, arr(w.length, (i) => (n.includes('norm') ? 1 + w[i]! : w[i]! * 10))]));
  const vocab = config.vocab;
  const batch = {
    tokens: BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 5 + 2) % vocab)), batch: B, time: T,
    mask: arr(B * (T - 1), (i) => (i % 4 === 2 ? 0 : 1)),
    dlogp: arr(B * (T - 1), (i) => Math.sin(i + 1)),
    invTemp: arr(B, (b) => 1 / (0.3 + 0.4 * b)),
  };
  const whole = await session.train(batch, weights);
  const f = await session.forward({ ...batch, dlogp: undefined }, weights);
  const grads = await session.backward(f.saved, batch, weights);
  t.ok(relErr(f.logp, whole.logp) <= tol, `${dtype} logp: relative error ${relErr(f.logp, whole.logp).toExponential(2)} <= ${tol}`);
  t.ok(Math.abs(f.loss - whole.loss) <= tol * Math.abs(whole.loss), `${dtype} loss ${f.loss} = ${whole.loss}`);
  t.same([...grads.keys()].sort(), [...parameterShapes(config).keys()].sort(), 'a gradient for every parameter');
  let worst = 0, worstName = 'none', smallest = Infinity;
  for (const [n, g] of whole.grads) {
    const e = relErr(grads.get(n)!, g);
    if (e > worst) (worst = e), (worstName = n);
    smallest = Math.min(smallest, Math.max(...Array.from(g, Math.abs)));
  }
  t.ok(smallest > 1e-6, `every parameter has a gradient that is not zero (smallest max |g| ${smallest.toExponential(2)})`);
  t.ok(worst <= tol, `${dtype} gradients: worst relative error ${worst.toExponential(2)} (${worstName}) <= ${tol}`);
  t.ok(f.saved.bytes > 0, `${Object.keys(f.saved.tensors).length} saved tensors, ${f.saved.bytes} bytes`);
}

t.test('two-phase training gives the one-piece graph\'s log-probs and gradients', async (t) => {
  await compare(t, TINY, 'float64', 2, 6, 1e-12);
  await compare(t, SMALL, 'float32', 3, 20, 1e-5);
});
