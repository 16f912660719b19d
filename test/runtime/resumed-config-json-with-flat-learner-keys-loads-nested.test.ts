// A run's saved config.json written before the learner options were nested holds flat keys (`loop.learner.eta`,
// `objective: "decoupled"`, `group: false`, ...): `--resume DIR` still loads it, each key moved onto its nested path
// (LEARNER_FLAT_KEYS), and the learner resolves the same settings as before.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import defaults from '../../cluster.config.js';
import { validateLearnerOptions, type LearnerOptions } from '../../actors/learner/options.js';
import { loadConfig } from '../../runtime/config.js';
import { parseStartArgs } from '../../runtime/start-host.js';
import '../../app/roles.js'; // registers the loop section and its moved paths with the config loader

const dir = mkdtempSync(join(tmpdir(), 'spade-flat-resume-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test("a resumed run's config.json with flat learner keys loads them onto the nested ones", async (t) => {
  const flat = {
    eta: 4, objective: 'decoupled', clipEps: 0.1, roleWeights: { designer: 1, agent: 3 }, microBatchTokens: 2048, checkpointEvery: 5,
    stateDir: join(dir, 'learner'), checkpointFormat: 'hf', ownThread: false, group: false, groupRoundTimeoutMs: 5_000,
    model: { layers: 1, width: 32, heads: 2, contextLength: 64 }, adamw: { weightDecay: 0.1 },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...defaults, run: { ...defaults.run, dir }, loop: { k: 4, learner: flat } }));
  const args = parseStartArgs(['--resume', dir]);
  t.ok(args.savedRun, 'read as the run\'s own saved config');
  const config = await loadConfig({ env: {}, file: args.file, set: args.set, savedRun: args.savedRun });
  const learner = (config.loop as { learner: LearnerOptions }).learner;
  t.same(learner, {
    model: flat.model, adamw: flat.adamw,
    objective: { kind: 'decoupled', clipEps: 0.1, roleWeights: { designer: 1, agent: 3 } },
    batching: { eta: 4, microBatchTokens: 2048 }, cadence: { checkpointEvery: 5 },
    checkpoints: { dir: flat.stateDir, format: 'hf' }, host: { ownThread: false }, group: { enabled: false, roundTimeoutMs: 5_000 },
  }, 'every flat key is on its nested path, and model and adamw stay where they were');
  t.equal((config.loop as { k: number }).k, 4, 'the rest of the loop section is kept');
  const o = validateLearnerOptions(learner);
  t.equal(o.batching.eta, 4, 'the learner resolves the saved settings');
  t.equal(o.batching.minibatchTrajectories, 32, 'and its defaults for the rest');
});
