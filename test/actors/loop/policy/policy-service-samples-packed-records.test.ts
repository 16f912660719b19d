// The policy service on the real ModelSession/Sampler: SAMPLE records unpack to the sampled tokens with one
// log-prob and one version each, concurrent requests share decode steps, and new weights raise the version.
import t from 'tap';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { unpackFloats, unpackInts } from '../../../../actors/loop/packed.js';
import { agentPrompt } from '../../../../actors/loop/prompts.js';
import { initParameters } from '../../../../model/decoder.js';
import { TINY_POLICY } from './tiny-loop.js';

t.test('samples unpack, batch together and carry versions', async (t) => {
  const policy = await PolicyService.open({ policy: TINY_POLICY });
  t.teardown(() => policy.close());
  const tok = policy.format;
  const prompt = agentPrompt(tok, { description: 'Reach the target.', history: [], observation: 'Target 23. Total 0.', maxPromptTokens: 300 });
  const before = policy.sampler.steps;
  const [a, b] = await Promise.all([
    policy.sample(prompt, { maxTokens: 12, temperature: 1, topP: 1 }),
    policy.sample(prompt, { maxTokens: 12, temperature: 1, topP: 1 }),
  ]);
  for (const s of [a, b]) {
    const tokens = unpackInts(s.tokens), logp = unpackFloats(s.logprobs), versions = unpackInts(s.versions);
    t.same([...unpackInts(s.promptTokens)], prompt, 'prompt tokens round-trip');
    t.ok(tokens.length >= 1 && tokens.length <= 12);
    t.equal(logp.length, tokens.length, 'one log-prob per token');
    t.equal(versions.length, tokens.length, 'one version per token');
    t.ok([...logp].every((x) => x <= 0 && Number.isFinite(x)), 'log-probs are finite and <= 0');
    t.same([...new Set(versions)], [0], 'sampled by version 0');
    const plain = [...tokens].filter((x) => !tok.stopIds.includes(x)); // <|end_turn|> and <|eos|>
    t.equal(s.text, tok.decode(plain), 'text is the decoded tokens without the stop token');
    t.ok(['stop', 'length'].includes(s.finishReason));
  }
  const steps = policy.sampler.steps - before;
  const longest = Math.max(unpackInts(a.tokens).length, unpackInts(b.tokens).length);
  t.ok(steps <= longest, `two requests took ${steps} decode steps, no more than the longer one's ${longest} tokens`);

  const w = initParameters(policy.config, 99);
  policy.setWeights(w, 3);
  const c = await policy.sample(prompt, { maxTokens: 4, temperature: 1, topP: 1 });
  t.same([...new Set(unpackInts(c.versions))], [3], 'later samples carry the new version');
  t.equal(policy.stats.version, 3);
  t.equal(policy.stats.samples, 3);
});
