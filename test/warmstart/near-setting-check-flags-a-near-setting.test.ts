// The near-suite setting check can fail: a module with a near module's parent and knob values is flagged whatever its
// name and comments, and the library's own settings, another parent, or one knob off are not.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { loadLibrary } from '../../warmstart/index.js';
import { knobSetting, nearSettingClashes, nearSettings } from '../envs/heldout-suite.js';

t.test('the near-setting check flags a near setting', async (t) => {
  const near = nearSettings();
  const library = loadLibrary();
  const door = library.find((e) => e.name === 'door-code')!;
  const seven = near.find((n) => n.file.endsWith('door-code-seven.js'))!;
  t.equal(seven.setting, 'CODES=7 TRIES=6 DIGITS=4', 'a setting is the scalar knobs in source order');

  // The library module with door-code-seven's values written in by hand, under a training name.
  const child = door.code.replace('const CODES = 4;', 'const CODES = 7;').replace('const TRIES = 3;', 'const TRIES = 6;').replace("name: 'door-code'", "name: 'harbour-code'");
  const hits = nearSettingClashes(near, [{ root: 'door-code', code: child }]);
  t.same(hits.map((h) => [h.near, h.setting]), [['envs/heldout-near/reasoning/door-code-seven.js', 'CODES=7 TRIES=6 DIGITS=4']], 'a child with its values is flagged');
  for (const n of near) {
    const code = readFileSync(repoPath(...n.file.split('/')), 'utf8');
    t.equal(nearSettingClashes(near, [{ root: n.parent, code }]).length, 1, `${n.file} itself is flagged`);
  }

  t.same(nearSettingClashes(near, library.map((e) => ({ root: e.name, code: e.code }))), [], "the library's own settings are not");
  t.same(nearSettingClashes(near, [{ root: 'max-pick', code: child }]), [], 'the same values under another parent are not');
  const oneOff = child.replace('const TRIES = 6;', 'const TRIES = 5;');
  t.equal(knobSetting(oneOff), 'CODES=7 TRIES=5 DIGITS=4');
  t.same(nearSettingClashes(near, [{ root: 'door-code', code: oneOff }]), [], 'one knob off is not');
});
