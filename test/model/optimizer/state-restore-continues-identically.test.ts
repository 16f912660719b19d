// Exporting the optimizer state and loading it into a new optimizer continues training bit-exactly.
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';
import { mulberry32 } from '../tokenizer/helpers.js';

const rnd = mulberry32(3);

const shapes: Array<[string, number]> = [['tok_embeddings.weight', 64], ['layers.0.attention.wq.weight', 48], ['norm.weight', 8]];

const gradsAt = (): Map<string, Float32Array> => new Map(shapes.map(([n, k]) => [n, Float32Array.from({ length: k }, () => rnd() - 0.5)]));

const options = { schedule: { peakLr: 0.01, warmupSteps: 3, decaySteps: 8, minLr: 0.001 } };

t.test('continue after restore', async (t) => {
  const params = new Map(shapes.map(([n, k]) => [n, Float32Array.from({ length: k }, () => rnd())]));
  const gs = Array.from({ length: 6 }, gradsAt);
  const a = new AdamW(options);
  for (const g of gs.slice(0, 3)) a.update(params, g);
  const saved = a.exportState();
  const snapshot = new Map([...params].map(([n, p]) => [n, p.slice()]));
  for (const g of gs.slice(3)) a.update(params, g);

  const b = new AdamW(options);
  b.loadState(saved);
  t.equal(b.step, 3);
  for (const g of gs.slice(3)) b.update(snapshot, g);
  for (const [n, p] of params) t.ok(Buffer.from(p.buffer).equals(Buffer.from(snapshot.get(n)!.buffer)), `${n} bit-identical`);
  t.same(b.exportState(), a.exportState(), 'states agree too');
  saved.m.get('norm.weight')![0] = 123;
  t.not(b.exportState().m.get('norm.weight')![0], 123, 'loadState copied, not aliased');
});
