// The probe end to end on the real sandbox and onnxruntime: it scores the shipped module before and after on the same
// seeds, trains between them on the module and children of its knobs, and saves end weights that load and differ
// from the start's.
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProbe, validateProbeOptions } from '../../probe/index.js';
import { loadModel } from '../../model/index.js';
import { repoPath } from '../../runtime/paths.js';

t.test('before and after on the same seeds, updates between them, end weights saved', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'spade-probe-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const checkpoint = repoPath('model', 'checkpoints', 'base');
  const lines: number[] = [];
  const r = await runProbe(validateProbeOptions({
    modules: [repoPath('envs', 'library', 'reasoning', 'max-pick.js')], checkpoint, iterations: 3, k: 4, evalSeeds: 6, slots: 2, children: 1,
    lr: 1e-3, threads: 1, save: join(dir, 'end'),
  }), (l) => lines.push(l.iteration));
  t.same(lines, [0, 1, 2], 'one line per iteration');
  t.same(Object.keys(r.perModule), ['max-pick'], 'scored on the shipped module');
  t.equal(r.returns.before['max-pick']!.length, 6);
  t.equal(r.returns.after['max-pick']!.length, 6, 'the same seeds after');
  t.equal(r.evalEpisodes, 12);
  t.ok(r.settingsTried >= 1, 'children of the module were tried');
  t.ok(r.settings.some((s) => s.key === 'max-pick{COUNT=3,LO=10,HI=99}' && s.visits === 3), 'the shipped setting stays in the buffer');
  t.ok(r.episodes >= 3 * 2 * 4, 'k episodes per arm and group');
  t.equal(r.played.find((p) => p.key === 'max-pick{COUNT=3,LO=10,HI=99}')?.visits, 3, 'every setting played is recorded, with its visits');
  t.equal(r.played.length, r.settingsTried - r.settingsRejected + 1, 'the shipped one and each validated child');
  t.ok(r.gainNoHint.ci95[0] <= r.gainNoHint.mean && r.gainNoHint.mean <= r.gainNoHint.ci95[1]);
  const start = await loadModel(checkpoint), end = await loadModel(join(dir, 'end'));
  t.equal(end.policyVersion, r.updates);
  const name = 'layers.0.attention.wq.weight';
  const moved = r.updates > 0 && end.params.get(name)!.some((w, i) => w !== start.params.get(name)![i]);
  t.equal(moved, r.updates > 0, 'the saved weights are the trained ones');
});

