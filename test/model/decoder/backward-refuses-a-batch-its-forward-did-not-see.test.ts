// backward() takes the saved tensors of one forward() and that forward's batch: a batch of another shape (the wrong
// micro-batch's) fails before onnxruntime with a ModelOptionError naming it, and a missing dlogp names dlogp.
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';

const config: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 16, vocab: 30, ffnHidden: 24 };

t.test('backward refuses a batch its forward did not see', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['split'], intraOpNumThreads: 1 });
  t.teardown(() => s.release());
  const w = initParameters(config, 1);
  const batch = (B: number, T: number) => ({
    tokens: BigInt64Array.from({ length: B * T }, (_, i) => BigInt(i % 30)), batch: B, time: T,
    mask: new Float32Array(B * (T - 1)).fill(1), dlogp: new Float32Array(B * (T - 1)).fill(0.1),
  });
  const f = await s.forward(batch(2, 5), w);
  const fieldOf = async (p: Promise<unknown>): Promise<string> => p.then(() => 'no error', (e: { name: string; field: string }) => `${e.name}:${e.field}`);
  t.equal(await fieldOf(s.backward(f.saved, batch(2, 6), w)), 'ModelOptionError:batch', 'a longer batch');
  t.equal(await fieldOf(s.backward(f.saved, batch(3, 5), w)), 'ModelOptionError:batch', 'more rows');
  t.equal(await fieldOf(s.backward(f.saved, { ...batch(2, 5), dlogp: undefined as never }, w)), 'ModelOptionError:dlogp', 'no dlogp');
  t.equal((await s.backward(f.saved, batch(2, 5), w)).size, initParameters(config, 1).size, 'its own batch gives every gradient');
});
