// The SAMPLE's behaviour log-probs are log μ(token) of the distribution the token was actually drawn from: the
// model's own log π at temperature 1 / top-p 1, softmax(log π / T) at temperature T, and that renormalised over
// the nucleus under top-p. Checked on each sample's first token against the full next-token distribution computed
// independently by the scoring graph (one row per vocabulary entry), on the real policy service.
import t from 'tap';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { unpackFloats, unpackInts } from '../../../../actors/loop/packed.js';
import { agentPrompt } from '../../../../actors/loop/prompts.js';
import { initParameters } from '../../../../model/decoder.js';
import { ModelSession } from '../../../../model/session.js';
import { TINY_POLICY } from './tiny-loop.js';

function logSumExp(xs: readonly number[]): number {
  const m = Math.max(...xs);
  return m + Math.log(xs.reduce((a, x) => a + Math.exp(x - m), 0));
}

/** log μ(token) after temperature T and nucleus top-p, from the temperature-1 log-probs of the whole vocabulary. */
function sampledLogprob(logp: readonly number[], token: number, T: number, topP: number): number {
  const scaled = logp.map((x) => x / T);
  const z = logSumExp(scaled);
  const p = scaled.map((x) => Math.exp(x - z));
  const sorted = [...p].sort((a, b) => b - a);
  let acc = 0, threshold = 0;
  for (const x of sorted) {
    acc += x;
    threshold = x;
    if (acc >= topP) break;
  }
  const mass = topP < 1 ? p.filter((x) => x >= threshold).reduce((a, b) => a + b, 0) : 1;
  return Math.log(p[token]! / mass);
}

t.test('behaviour log-probs follow temperature and top-p', async (t) => {
  const policy = await PolicyService.open({ policy: TINY_POLICY });
  const session = await ModelSession.create(policy.config, { graphs: ['score'] });
  t.teardown(async () => (await policy.close(), await session.release()));
  const weights = initParameters(policy.config, 5);
  policy.setWeights(weights, 1);
  const prompt = agentPrompt(policy.format, { description: 'Say a number.', history: [], observation: 'Go.', maxPromptTokens: 200 });

  // The full next-token distribution after the prompt: one scored row per vocabulary entry.
  const V = policy.config.vocab, L = prompt.length + 1;
  const tokens = new BigInt64Array(V * L);
  const mask = new Float32Array(V * (L - 1));
  for (let v = 0; v < V; v++) {
    prompt.forEach((x, i) => (tokens[v * L + i] = BigInt(x)));
    tokens[v * L + L - 1] = BigInt(v);
    mask[v * (L - 1) + L - 2] = 1;
  }
  const { logp: scored } = await session.score({ tokens, batch: V, time: L, mask }, weights);
  const full = Array.from({ length: V }, (_, v) => scored[v * (L - 1) + L - 2]!);
  t.ok(Math.abs(logSumExp(full)) < 1e-3, 'the scored next-token log-probs form a distribution');

  for (const [T, topP] of [[1, 1], [0.6, 1], [1.5, 1], [0.8, 0.5]] as const) {
    for (let i = 0; i < 4; i++) {
      const s = await policy.sample(prompt, { maxTokens: 2, temperature: T, topP });
      const first = unpackInts(s.tokens)[0]!;
      const recorded = unpackFloats(s.logprobs)[0]!;
      const want = sampledLogprob(full, first, T, topP);
      t.ok(Math.abs(recorded - want) < 2e-3, `T ${T}, top-p ${topP}: token ${first} recorded ${recorded.toFixed(4)} = ${want.toFixed(4)}`);
      if (T !== 1 || topP !== 1) t.ok(Math.abs(recorded - full[first]!) > 1e-3, `T ${T}, top-p ${topP}: not the temperature-1 log π ${full[first]!.toFixed(4)}`);
    }
  }
});
