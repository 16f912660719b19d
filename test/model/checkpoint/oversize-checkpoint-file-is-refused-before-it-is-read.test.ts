// A weights or optimizer file bigger than its model's tensors plus the largest header allowed (100 MB) is refused from
// its size with CorruptFileError naming the file, before it is read into memory (here: sparse files of about 1 GB).
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint } from '../../../model/checkpoint.js';
import { CorruptFileError } from '../../../model/errors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { SHAPES } from './fixture.js';
import { saved } from './saved-checkpoint.js';

t.test('an oversize checkpoint file is refused before it is read', async (t) => {
  for (const file of [CHECKPOINT_FILES.weights, CHECKPOINT_FILES.optimizer]) {
    const dir = await saved(t);
    await truncate(join(dir, file), 2 ** 30); // sparse: no disk is spent
    const e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
    t.ok(e instanceof CorruptFileError && new RegExp(`^${file.replace('.', '\\.')}: corrupt file: 1073741824 bytes, more than the \\d+ its tensors and the largest header allowed take: not read$`).test((e as Error).message), `${file}: ${String(e)}`);
  }
});
