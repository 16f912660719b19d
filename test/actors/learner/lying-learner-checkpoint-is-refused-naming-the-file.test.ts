// A learner state directory is read back from disk and may have been tampered with: a LATEST that names a path outside
// the state directory, a learner.json that is not an object, whose counters disagree with its directory or with the
// model's config.json, or a model checkpoint whose tensor has its config's element count but another shape (a
// transposed matrix) is refused at start with a typed error naming the file and what is wrong, before any weight is
// used. The same holds for a base (init) checkpoint.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { isLearnerStateError } from '../../../actors/learner/errors.js';
import { saveLearnerCheckpoint } from '../../../actors/learner/learner-checkpoint.js';
import { mergeLearnerOptions, validateLearnerOptions, type LearnerOptions } from '../../../actors/learner/options.js';
import { loadLearnerModel } from '../../../actors/learner/learner-model.js';
import { ShapeMismatchError, byteTokenizer, initParameters, parameterShapes, saveCheckpoint, validateDecoderConfig } from '../../../model/index.js';
import { tempDir } from '../../helpers/nats.js';
import { TINY, learnerOptions } from './tiny.js';

const STATE = { version: 3, updates: 6, applied: 12, dropped: 1, lastStreamSeq: 9 };
const W1 = 'layers.0.feed_forward.w1.weight';

async function stateDir(t: Test): Promise<string> {
  const dir = tempDir(t, 'spade-learner-');
  const config = validateDecoderConfig(TINY);
  await saveLearnerCheckpoint(dir, { state: STATE, model: { ...config }, params: initParameters(config, 1), shapes: parameterShapes(config), tokenizer: byteTokenizer() }, 2);
  return dir;
}
const load = (dir: string, extra: LearnerOptions = {}) => loadLearnerModel(dir, validateLearnerOptions(learnerOptions(mergeLearnerOptions({ host: { ownThread: false } }, extra))), 1);
const failure = (p: Promise<unknown>): Promise<unknown> => p.then((m) => (void (m as { trainer: { close(): Promise<void> } }).trainer.close(), null), (e: unknown) => e);

t.test('a lying learner checkpoint is refused naming the file', async (t) => {
  const good = await stateDir(t);
  const ok = await load(good);
  t.match(ok.state, STATE, 'the untouched checkpoint resumes');
  await ok.trainer.close();

  const cases: Array<[string, (dir: string) => Promise<void>, RegExp]> = [
    ['LATEST naming a path outside the state directory', (d) => writeFile(join(d, 'LATEST'), '../../etc\n'), /LATEST names "\.\.\/\.\.\/etc", not a checkpoint directory/],
    ['learner.json holding null', (d) => writeFile(join(d, 'ckpt-00000006', 'learner.json'), 'null'), /learner\.json: must be a JSON object/],
    ['learner.json with a fractional counter', async (d) => writeFile(join(d, 'ckpt-00000006', 'learner.json'), JSON.stringify({ ...STATE, applied: 1.5 })), /learner\.json: applied must be an integer >= 0 \(got 1\.5\)/],
    ['learner.json whose update count is not its directory\'s', (d) => writeFile(join(d, 'ckpt-00000006', 'learner.json'), JSON.stringify({ ...STATE, updates: 7 })), /learner\.json: updates is 7, but the directory is ckpt-00000006/],
    ['learner.json whose version is not the model\'s', (d) => writeFile(join(d, 'ckpt-00000006', 'learner.json'), JSON.stringify({ ...STATE, version: 4 })), /learner\.json: version is 4, but model\/config\.json says policyVersion 3/],
  ];
  for (const [what, tamper, message] of cases) {
    const dir = await stateDir(t);
    await tamper(dir);
    const err = await failure(load(dir));
    t.ok(isLearnerStateError(err) && message.test(String(err)), `${what}: ${String(err)}`);
  }

  // The same element count in another shape: only the shape table the config implies can tell.
  const transposed = async (dir: string): Promise<void> => {
    const config = validateDecoderConfig(TINY);
    const shapes = parameterShapes(config);
    const [rows, cols] = shapes.get(W1)!;
    shapes.set(W1, [cols!, rows!]);
    await saveCheckpoint(dir, { model: { ...config }, params: initParameters(config, 1), shapes, tokenizer: byteTokenizer(), policyVersion: 3, step: 0 });
  };
  const resumeDir = await stateDir(t);
  const model = join(resumeDir, 'ckpt-00000006', 'model');
  await transposed(model);
  const err = await failure(load(resumeDir));
  t.ok(err instanceof ShapeMismatchError && err.tensor === W1 && /model\.safetensors: tensor "layers\.0\.feed_forward\.w1\.weight" has shape \[16, 32\], expected \[32, 16\]/.test(String(err)), `resume: ${String(err)}`);

  const base = join(tempDir(t, 'spade-base-'), 'base');
  await transposed(base);
  const err2 = await failure(load(tempDir(t, 'spade-learner-'), { init: { checkpoint: base } }));
  t.ok(err2 instanceof ShapeMismatchError && err2.tensor === W1, `init checkpoint: ${String(err2)}`);
  t.ok((await readFile(join(base, 'config.json'), 'utf8')).includes('"policyVersion": 3'));
});
