// loop.learner.checkpoints.format = "hf": each learner checkpoint also holds its weights as a Hugging Face directory
// (ckpt-<n>/hf) that loads back with bit-identical tensors and a llama config; the default writes none, and
// another value is refused naming the field.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { saveLearnerCheckpoint } from '../../../actors/learner/learner-checkpoint.js';
import { validateLearnerOptions } from '../../../actors/learner/options.js';
import { byteTokenizer, initParameters, loadModel, parameterShapes, validateDecoderConfig } from '../../../model/index.js';
import { tempDir } from '../../helpers/nats.js';
import { TINY } from './tiny.js';

t.test('checkpoints.format hf writes a Hugging Face copy of each checkpoint', async (t) => {
  t.equal(validateLearnerOptions({}).checkpoints.format, 'spade', 'SPADE only by default');
  t.throws(() => validateLearnerOptions({ checkpoints: { format: 'gguf' as 'hf' } }), /loop\.learner\.checkpoints\.format/);
  const config = validateDecoderConfig(TINY);
  const params = initParameters(config, 4);
  const state = { version: 2, updates: 3, applied: 5, dropped: 0, lastStreamSeq: 7 };
  const c = { state, model: { ...config }, params, shapes: parameterShapes(config), tokenizer: byteTokenizer() };

  const plain = tempDir(t, 'spade-learner-');
  const p = await saveLearnerCheckpoint(plain, c, 2);
  t.same((await readdir(p)).sort(), ['learner.json', 'model'], 'the default writes the SPADE form only');

  const dir = tempDir(t, 'spade-learner-');
  const ck = await saveLearnerCheckpoint(dir, c, 2, 'hf');
  t.same((await readdir(ck)).sort(), ['hf', 'learner.json', 'model']);
  const hf = await loadModel(join(ck, 'hf'));
  t.equal(hf.format, 'hf');
  t.equal(hf.hfConfig!.model_type, 'llama');
  t.same(hf.model, config, 'the same decoder config');
  const differing = [...params].filter(([n, a]) => !Buffer.from(a.buffer).equals(Buffer.from(hf.params.get(n)!.buffer))).map(([n]) => n);
  t.same(differing, [], 'bit-identical tensors');
  t.same((await readdir(join(ck, 'hf'))).sort(), ['config.json', 'model.safetensors', 'spade-tokenizer.json']);
});
