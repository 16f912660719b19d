// Shared by the checkpoint mismatch tests: a freshly saved checkpoint of the fixture parameters, with optimizer state,
// in a temporary folder.
import { join } from 'node:path';
import { saveCheckpoint } from '../../../model/checkpoint.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { makeOptimizerState, makeParams, SHAPES, tempDir } from './fixture.js';

export const model = { layers: 1 };

export async function saved(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const dir = join(await tempDir(t), 'ckpt');
  const params = makeParams();
  await saveCheckpoint(dir, { model, params, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0, optimizer: makeOptimizerState(params) });
  return dir;
}
