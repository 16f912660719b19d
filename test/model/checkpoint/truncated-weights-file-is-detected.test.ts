// A weights file truncated in its data, its header or its header length fails with TruncatedFileError naming
// the file.
import { readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { TruncatedFileError } from '../../../model/errors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { makeParams, SHAPES, tempDir } from './fixture.js';

t.test('truncated weights file', async (t) => {
  const dir = join(await tempDir(t), 'ckpt');
  await saveCheckpoint(dir, { model: {}, params: makeParams(), shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 });
  const path = join(dir, CHECKPOINT_FILES.weights);
  const full = await readFile(path);
  await truncate(path, full.length - 3);
  let e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError && /ends at data byte/.test(String(e)) && String(e).includes(CHECKPOINT_FILES.weights), String(e));
  await truncate(path, 20);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError && /header needs/.test(String(e)), String(e));
  await truncate(path, 5);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError, String(e));
});
