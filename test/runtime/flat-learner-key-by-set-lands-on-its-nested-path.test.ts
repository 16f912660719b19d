// `--set loop.learner.<flatKey>=...` as written before the learner options were nested (and as experiment presets
// still write it) lands on the nested path (LEARNER_FLAT_KEYS); later sources still win, whichever path they use.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LearnerOptions } from '../../actors/learner/options.js';
import { loadConfig } from '../../runtime/config.js';
import { isOptionsError } from '../../runtime/options.js';
import '../../app/roles.js'; // registers the loop section and its moved paths with the config loader

const dir = mkdtempSync(join(tmpdir(), 'spade-flat-set-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const learnerOf = async (set: string[], file?: string): Promise<LearnerOptions> =>
  ((await loadConfig({ env: {}, set, ...(file ? { file } : {}) })).loop as { learner: LearnerOptions }).learner;

t.test('a flat learner key given by --set lands on its nested path', async (t) => {
  t.same(await learnerOf(['loop.learner.microBatchTokens=2048', 'loop.learner.checkpointEvery=5']),
    { batching: { microBatchTokens: 2048 }, cadence: { checkpointEvery: 5 } }, 'the presets\' flat keys');
  t.same(await learnerOf(['loop.learner.objective=decoupled', 'loop.learner.group=true', 'loop.learner.groupKeepRounds=20']),
    { objective: { kind: 'decoupled' }, group: { enabled: true, keepRounds: 20 } }, 'a flat key that names a group now moves by its value');
  t.same(await learnerOf(['loop.learner.roleWeights.agent=2']), { objective: { roleWeights: { agent: 2 } } }, 'a path below a moved key moves with it');
  t.same(await learnerOf(['loop.learner.objective={"kind":"decoupled"}', 'loop.learner.batching.eta=3']),
    { objective: { kind: 'decoupled' }, batching: { eta: 3 } }, 'nested paths are taken as they are');
  const file = join(dir, 'mine.json');
  writeFileSync(file, JSON.stringify({ loop: { learner: { batching: { eta: 1 } } } }));
  t.same(await learnerOf(['loop.learner.eta=6'], file), { batching: { eta: 6 } }, 'a flat --set overrides the nested value of a file');
  const refused = await learnerOf(['loop.learner.microBatchTokens=1']).then(() => 'loaded', (err: unknown) => (isOptionsError(err) ? err.path : String(err)));
  t.equal(refused, 'config.loop.learner.batching.microBatchTokens', 'a bad value names the nested field');
});
