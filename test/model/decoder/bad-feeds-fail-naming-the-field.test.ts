// Bad feeds to a model session (a token past the vocab, a mask of the wrong length, a position past the context)
// fail before onnxruntime with a ModelOptionError naming the field.
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';

const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 32, vocab: 40, ffnHidden: 48 };

t.test('bad feeds fail before onnxruntime with the field named', async (t) => {
  const s = await ModelSession.create(config);
  const w = initParameters(config, 1);
  const ones = new Float32Array(3).fill(1);
  const fieldOf = async (p: Promise<unknown>): Promise<string> => p.then(() => 'no error', (e: { name: string; field: string }) => `${e.name}:${e.field}`);
  t.equal(await fieldOf(s.train({ tokens: BigInt64Array.of(1n, 2n, 99n, 3n), batch: 1, time: 4, mask: ones, dlogp: ones }, w)), 'ModelOptionError:tokens');
  t.equal(await fieldOf(s.train({ tokens: BigInt64Array.of(1n, 2n, 3n, 4n), batch: 1, time: 4, mask: ones.subarray(1), dlogp: ones }, w)), 'ModelOptionError:mask');
  t.equal(await fieldOf(s.step({ tokens: BigInt64Array.of(1n), positions: BigInt64Array.of(32n), bias: new Float32Array(1), batch: 1, steps: 1, past: s.emptyCache(1) }, w)), 'ModelOptionError:positions');
  await s.release();
});
