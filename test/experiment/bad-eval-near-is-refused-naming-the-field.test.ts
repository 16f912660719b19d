// experiment.eval.near is null or { suite, seeds }: an empty suite, a seed count below 1 or another field is refused
// with an OptionsError naming the field.
import t from 'tap';
import { resolveExperimentConfig } from '../../experiment/index.js';

t.test('bad eval.near is refused naming the field', async (t) => {
  t.throws(() => resolveExperimentConfig('smoke', { eval: { near: { suite: '', seeds: 2 } } }), /experiment\.eval\.near\.suite/);
  t.throws(() => resolveExperimentConfig('smoke', { eval: { near: { suite: 'x', seeds: 0 } } }), /experiment\.eval\.near\.seeds/);
  t.throws(() => resolveExperimentConfig('smoke', { eval: { near: { suite: 'x', seeds: 2, extra: 1 } as never } }), /experiment\.eval\.near\.extra/);
});
