// A bad checkpoint config, a tokenizer that does not match its sha256, or a model vocab smaller than the
// tokenizer's fail with CheckpointConfigError naming the field.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint } from '../../../model/checkpoint.js';
import { CheckpointConfigError, isCheckpointError } from '../../../model/errors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { saved } from './saved-checkpoint.js';

t.test('config and tokenizer', async (t) => {
  const dir = await saved(t);
  const configPath = join(dir, CHECKPOINT_FILES.config);
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  await writeFile(configPath, JSON.stringify({ ...config, policyVersion: -1 }));
  let e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && e.field === 'policyVersion', String(e));
  await writeFile(configPath, '{"format": "spade-checkpoint",');
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && /not valid JSON/.test(String(e)), String(e));
  await writeFile(configPath, JSON.stringify(config));
  await writeFile(join(dir, CHECKPOINT_FILES.tokenizer), JSON.stringify({ ...byteTokenizer().toJSON(), name: 'other' }));
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && /sha256/.test(String(e)), String(e));
  await writeFile(join(dir, CHECKPOINT_FILES.tokenizer), JSON.stringify(byteTokenizer().toJSON()));
  await writeFile(configPath, JSON.stringify({ ...config, model: { vocab: 100 } }));
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && e.field === 'model.vocab' && /smaller than the tokenizer's vocab 272/.test(String(e)), String(e));
  e = await caughtAsync(() => loadCheckpoint(join(dir, 'nope')));
  t.ok(isCheckpointError(e) && /cannot read/.test(String(e)), String(e));
});
