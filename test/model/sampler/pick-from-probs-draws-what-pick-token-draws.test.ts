// pickFromProbs, given a row's distribution already at its temperature (as the sampling graph's probs_last gives it in
// float32), draws the tokens pickToken draws from that row's log-probs with the same uniforms, at every temperature
// and nucleus, with the same sample log-probs to float32 rounding.
import t from 'tap';
import { pickFromProbs, pickToken, seededUniform } from '../../../model/sampler/token-pick.js';

/** float32 softmax of logp / T, as onnxruntime computes probs_last. */
function tempered(logp: Float32Array, T: number): Float32Array {
  const x = Float32Array.from(logp, (v) => v / T), max = Math.max(...x);
  const e = Float32Array.from(x, (v) => Math.exp(v - max));
  const z = e.reduce((a, b) => a + b, 0);
  return Float32Array.from(e, (v) => v / z);
}

t.test('same draws as pickToken', async (t) => {
  const V = 2048;
  const rnd = seededUniform(11);
  let draws = 0, same = 0, worst = 0;
  for (const [T, topP] of [[1, 1], [0.5, 1], [0.3, 1], [2, 1], [1, 0.9], [0.5, 0.8]] as const) {
    for (let row = 0; row < 40; row++) {
      // Log-probs of a peaked row (a trained model's) or a flat one (an untrained model's).
      const spread = row % 2 ? 8 : 0.2;
      const logits = Float32Array.from({ length: V }, () => (rnd() - 0.5) * spread);
      const lse = Math.log(logits.reduce((a, b) => a + Math.exp(b), 0));
      const logp = Float32Array.from(logits, (v) => v - lse);
      const probs = tempered(logp, T);
      const [u1, u2] = [seededUniform(row), seededUniform(row)];
      for (let k = 0; k < 25; k++) {
        const a = pickToken(logp, { temperature: T, topP }, u1), b = pickFromProbs(probs, topP, u2);
        draws++;
        if (a.token === b.token) {
          same++;
          worst = Math.max(worst, Math.abs(a.sampleLogprob - b.sampleLogprob));
        }
      }
    }
  }
  t.equal(same, draws, `${same} of ${draws} draws took the same token`);
  t.ok(worst < 1e-4, `sample log-probs agree to ${worst.toExponential(2)}`);
});
