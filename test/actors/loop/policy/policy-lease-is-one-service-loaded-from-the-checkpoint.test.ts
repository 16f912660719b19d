// Designer and agent lease one policy service per process: a checkpoint loads with its policy version, the service
// stays open while a lease is held and closes after the last release, and a missing checkpoint fails the lease.
import t from 'tap';
import { leasePolicy } from '../../../../actors/loop/policy/shared.js';
import { unpackInts } from '../../../../actors/loop/packed.js';
import { initParameters, parameterShapes } from '../../../../model/decoder.js';
import { validateDecoderConfig } from '../../../../model/decoder-config.js';
import { saveCheckpoint } from '../../../../model/checkpoint.js';
import { tempDir } from '../../../helpers/nats.js';
import { TINY_POLICY } from './tiny-loop.js';

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
