// Weights that disagree with the expected table (a tensor missing, unexpected, or of another shape) fail with a
// typed error naming the tensor and the file.
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint } from '../../../model/checkpoint.js';
import { MissingTensorError, ShapeMismatchError, UnexpectedTensorError } from '../../../model/errors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { SHAPES } from './fixture.js';
import { saved } from './saved-checkpoint.js';

t.test('weights vs the expected table', async (t) => {
  const dir = await saved(t);
  const missing = new Map([...SHAPES, ['output.weight', [8, 4]]]);
  let e = await caughtAsync(() => loadCheckpoint(dir, { shapes: missing }));
  t.ok(e instanceof MissingTensorError && e.tensor === 'output.weight' && /missing tensor "output.weight"/.test(String(e)), String(e));

  const fewer = new Map([...SHAPES].filter(([n]) => n !== 'norm.weight'));
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: fewer }));
  t.ok(e instanceof UnexpectedTensorError && e.tensor === 'norm.weight', String(e));

  const wider = new Map([...SHAPES, ['tok_embeddings.weight', [8, 5]]]);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: wider }));
  t.ok(e instanceof ShapeMismatchError && e.tensor === 'tok_embeddings.weight' && /shape \[8, 4\], expected \[8, 5\]/.test(String(e)), String(e));
  t.ok(String(e).includes(CHECKPOINT_FILES.weights), 'names the file');

  const transposed = new Map([...SHAPES, ['tok_embeddings.weight', [4, 8]]]);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: transposed }));
  t.ok(e instanceof ShapeMismatchError, 'same element count, other shape: still a mismatch');
});
