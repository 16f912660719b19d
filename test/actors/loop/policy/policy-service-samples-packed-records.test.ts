// The policy service on the real ModelSession/Sampler: SAMPLE records unpack to the sampled tokens with one
// log-prob and one version each, concurrent requests share decode steps, new weights raise the version, a
// checkpoint loads with its policy version, and designer and agent leases share one service per process.
import t from 'tap';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { leasePolicy } from '../../../../actors/loop/policy/shared.js';
import { unpackFloats, unpackInts } from '../../../../actors/loop/packed.js';
import { agentPrompt } from '../../../../actors/loop/prompts.js';
import { initParameters, parameterShapes, validateDecoderConfig } from '../../../../model/decoder.js';
import { saveCheckpoint } from '../../../../model/checkpoint.js';
import { tempDir } from '../../../helpers/nats.js';
import { TINY_POLICY } from './tiny-loop.js';

t.test('samples unpack, batch together and carry versions', async (t) => {
  const policy = await PolicyService.open({ policy: TINY_POLICY });
  t.teardown(() => policy.close());
  const tok = policy.tokenizer;
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
    const endTurn = tok.specialId('<|end_turn|>'), eos = tok.specialId('<|eos|>');
    const plain = [...tokens].filter((x) => x !== endTurn && x !== eos);
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

t.test('a checkpoint loads with its policy version; the lease is shared', async (t) => {
  const dir = tempDir(t);
  const { loadTokenizer } = await import('../../../../model/tokenizer.js');
  const tok = loadTokenizer('bpe-2048');
  const model = { layers: 1, width: 32, heads: 2, contextLength: 128, vocab: tok.vocabSize };
  await saveCheckpoint(dir, { model, params: initParameters(model, 5), shapes: parameterShapes(model), tokenizer: tok, policyVersion: 7, step: 70 });
  const policy = { ...TINY_POLICY, checkpoint: dir, missingCheckpoint: 'fail' as const };
  const lines: string[] = [];
  const a = await leasePolicy(policy, null, (l) => lines.push(l));
  const b = await leasePolicy(policy, null);
  t.equal(a.policy, b.policy, 'one service per process');
  t.equal(a.policy.version, 7);
  t.equal(a.policy.contextLength, validateDecoderConfig(model).contextLength);
  const s = await a.policy.sample([tok.specialId('<|bos|>')], { maxTokens: 3, temperature: 1, topP: 1 });
  t.same([...new Set(unpackInts(s.versions))], [7]);
  await a.release();
  await t.resolves(b.policy.sample([tok.specialId('<|bos|>')], { maxTokens: 2, temperature: 1, topP: 1 }), 'still open while a lease is held');
  await b.release();
  await t.rejects(b.policy.sample([1], { maxTokens: 2, temperature: 1, topP: 1 }), { code: 'POLICY' }, 'closed after the last release');
  const missing = leasePolicy({ ...policy, checkpoint: `${dir}-missing` }, null);
  await t.rejects(missing, { code: 'POLICY' }, 'a missing checkpoint fails when missingCheckpoint is "fail"');
});
