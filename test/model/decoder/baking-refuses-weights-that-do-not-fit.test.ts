// Baking weights that do not fit the config is refused with a ModelOptionError naming the parameter.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { config, scaled } from './scaled-weights.js';

t.test('baking refuses weights that do not fit the config, naming the parameter', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['sample'] });
  const bad = scaled(1);
  bad.set('layers.1.attention.wq.weight', new Float32Array(3));
  await t.rejects(s.bakeWeights(bad), { name: 'ModelOptionError', field: 'weights.layers.1.attention.wq.weight' });
  await s.release();
});
