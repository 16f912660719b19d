// The policy service checks its base checkpoint against the parameter table the checkpoint's own config implies: a
// tensor with the right element count in another shape (a transposed matrix) is refused at open, naming the tensor,
// instead of reaching the sampler as scrambled weights; the same checkpoint with the right shapes opens.
import { join } from 'node:path';
import t from 'tap';
import { isPolicyError } from '../../../../actors/loop/errors.js';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { ShapeMismatchError, byteTokenizer, initParameters, parameterShapes, saveCheckpoint, validateDecoderConfig } from '../../../../model/index.js';
import { tempDir } from '../../../helpers/nats.js';
import { TINY_POLICY } from './tiny-loop.js';

t.test('a checkpoint with a transposed tensor is refused by the policy service', async (t) => {
  const config = validateDecoderConfig({ layers: 1, width: 16, heads: 2, contextLength: 32, vocab: byteTokenizer().vocabSize, ffnHidden: 32 });
  const root = tempDir(t, 'spade-policy-');
  const save = async (name: string, transpose: boolean): Promise<string> => {
    const shapes = parameterShapes(config);
    if (transpose) shapes.set('layers.0.feed_forward.w2.weight', [32, 16]); // [16, 32] in the config
    await saveCheckpoint(join(root, name), { model: { ...config }, params: initParameters(config, 2), shapes, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 });
    return join(root, name);
  };
  const err = await PolicyService.open({ policy: { ...TINY_POLICY, tokenizer: 'bytes', checkpoint: await save('bad', true) } }).then((p) => (void p.close(), null), (e: unknown) => e);
  t.ok(isPolicyError(err), String(err));
  t.ok((err as Error).cause instanceof ShapeMismatchError, 'the cause is the shape mismatch');
  t.match(String(err), /model\.safetensors: tensor "layers\.0\.feed_forward\.w2\.weight" has shape \[32, 16\], expected \[16, 32\]/);
  const ok = await PolicyService.open({ policy: { ...TINY_POLICY, tokenizer: 'bytes', checkpoint: await save('good', false) } });
  t.equal(ok.config.ffnHidden, 32);
  await ok.close();
});
