// A child setting moves one or two integer knobs of its parent, never past the root's spread, and changes nothing
// else in the module; the same knob values give the same key.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { withKnobs } from '../../actors/designer/index.js';
import { childSetting, rootSetting, settingKey } from '../../probe/index.js';
import { makeRandom } from '../../sandbox/index.js';
import { repoPath } from '../../runtime/paths.js';

const code = readFileSync(repoPath('envs', 'library', 'games', 'window-search.js'), 'utf8');

t.test('children move one or two knobs within root / spread … root · spread', async (t) => {
  const root = rootSetting('window-search', code)!;
  t.same(root.knobs, { TOP: 64, GUESSES: 6, WINDOW: 16 }, 'the root is the module as written');
  const random = makeRandom(7);
  let parent = root;
  for (let i = 0; i < 200; i++) {
    const child = childSetting(parent, root, random, { spread: 2 });
    if (!child) continue;
    const moved = Object.keys(child.knobs).filter((n) => child.knobs[n] !== parent.knobs[n]);
    t.ok(moved.length >= 1 && moved.length <= 2, `child ${i} moves one or two knobs (${moved})`);
    for (const [n, v] of Object.entries(child.knobs)) t.ok(v >= Math.ceil(root.knobs[n]! / 2) && v <= root.knobs[n]! * 2, `${n}=${v} within the spread`);
    t.equal(child.code, withKnobs(code, child.knobs), 'the child is the root module at its knob values');
    t.equal(child.code.replace(/^const [A-Z]+ = \d+;$/gm, ''), code.replace(/^const [A-Z]+ = \d+;$/gm, ''), 'nothing but knob lines differs');
    parent = child;
  }
  t.equal(settingKey(root), 'window-search{TOP=64,GUESSES=6,WINDOW=16}');
  t.equal(rootSetting('plain', "export const spec = {\n  name: 'plain',\n};\n"), null, 'no integer knob: no root setting');
  const one = { family: 'f', knobs: { N: 1 }, code: 'const N = 1;\n' };
  t.equal(childSetting(one, one, makeRandom(1), { spread: 1 }), null, 'spread 1 pins N at 1: the only child is the parent');
});
