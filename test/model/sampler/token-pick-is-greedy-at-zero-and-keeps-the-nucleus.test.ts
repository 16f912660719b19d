// pickToken: greedy at temperature 0, top-p keeps only the nucleus, and the reported sample log-prob is that of the
// distribution drawn from (the renormalised nucleus).
import t from 'tap';
import { pickToken, seededUniform } from '../../../model/sampler/token-pick.js';

const logp = Float64Array.from([0.5, 0.3, 0.15, 0.05], Math.log);

t.test('greedy and nucleus', async (t) => {
  const u = seededUniform(1);
  t.same(pickToken(logp, { temperature: 0, topP: 1 }, u), { token: 0, sampleLogprob: 0 });
  for (let i = 0; i < 50; i++) {
    const p = pickToken(logp, { temperature: 1, topP: 0.75 }, u);
    t.ok(p.token <= 1, 'only the two tokens covering 0.75 are drawn');
    t.ok(Math.abs(p.sampleLogprob - Math.log([0.5, 0.3][p.token]! / 0.8)) < 1e-12);
  }
});
