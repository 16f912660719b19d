// KV-cache decode on imported models: a prefill then one token at a time through the sampling graph gives the
// full forward's log-probs (and so the reference's) for every fixture, biases, q/k norms and rope scaling included.
import t from 'tap';
import { loadModel } from '../../../model/load-model.js';
import { concatKv } from '../../../model/sampler/kv-batch.js';
import { ModelSession } from '../../../model/session.js';
import { EXPECTED, FIXTURE_NAMES, fixtureDir } from './fixtures.js';

t.test('prefill + cached decode of imported models matches the full forward', async (t) => {
  const ids = EXPECTED.tokens, T = ids.length, prefill = 4;
  for (const name of FIXTURE_NAMES) {
    const m = await loadModel(fixtureDir(name));
    const V = m.model.vocab;
    const s = await ModelSession.create(m.model, { graphs: ['score', 'sample'] });
    const full = await s.score({ tokens: BigInt64Array.from(ids.map(BigInt)), batch: 1, time: T, mask: new Float32Array(T - 1).fill(1) }, m.params);
    const bias = new Float32Array(prefill * prefill).map((_, i) => (i % prefill <= Math.floor(i / prefill) ? 0 : -1e9));
    let past = s.emptyCache(1);
    let r = await s.step({
      tokens: BigInt64Array.from(ids.slice(0, prefill).map(BigInt)), positions: BigInt64Array.from({ length: prefill }, (_, i) => BigInt(i)),
      bias, batch: 1, steps: prefill, past,
    }, m.params);
    past = concatKv(past, r.fresh);
    let worstFull = 0, worstRef = 0;
    for (let pos = prefill; pos < T; pos++) {
      const viaCache = r.logpLast[ids[pos]!]!;
      worstFull = Math.max(worstFull, Math.abs(viaCache - full.logp[pos - 1]!));
      worstRef = Math.max(worstRef, Math.abs(viaCache - EXPECTED.models[name]!.logprobs[pos - 1]!));
      if (pos === T - 1) break;
      t.equal(r.logpLast.length, V);
      r = await s.step({ tokens: BigInt64Array.of(BigInt(ids[pos]!)), positions: BigInt64Array.of(BigInt(pos)), bias: new Float32Array(pos + 1), batch: 1, steps: 1, past }, m.params);
      past = concatKv(past, r.fresh);
    }
    t.ok(worstFull <= 1e-4, `${name}: cached decode vs full forward max abs diff ${worstFull.toExponential(2)} <= 1e-4`);
    t.ok(worstRef <= 2e-4, `${name}: cached decode vs reference ${worstRef.toExponential(2)} <= 2e-4`);
    t.equal(past.k[0]!.dims.join(','), `1,${m.model.kvHeads},${T - 1},${m.model.headDim}`, `${name}: cache holds ${T - 1} positions of head size ${m.model.headDim}`);
    await s.release();
  }
});
