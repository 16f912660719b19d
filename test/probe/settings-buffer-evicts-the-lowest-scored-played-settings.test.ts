// The buffer keeps at most perFamily settings per family: the family's root always stays, a setting not yet played
// waits for its score, and the played ones with the lowest scores go first; other families are untouched.
import t from 'tap';
import { SettingsBuffer, validateBufferOptions } from '../../probe/index.js';

const setting = (family: string, n: number) => ({ family, knobs: { N: n }, code: `const N = ${n};\n` });

t.test('eviction keeps the roots and each family\'s best', async (t) => {
  const b = new SettingsBuffer(validateBufferOptions({ perFamily: 3 }));
  const root = b.add(setting('a', 1), true);
  const kept = b.add(setting('a', 2)), lost = b.add(setting('a', 3)), unplayed = b.add(setting('a', 4)), other = b.add(setting('b', 1));
  b.observe(root.key, [0, 0], [], 0);
  b.observe(kept.key, [0, 1], [], 0);
  b.observe(lost.key, [0, 0, 0, 1], [], 0);
  t.same(b.evict().map((e) => e.key), [lost.key], 'the played non-root with the lowest score; an unplayed one waits for its score');
  t.same(b.family('a').map((e) => e.key).sort(), [root.key, kept.key, unplayed.key].sort());
  t.ok(b.entries.has(other.key), 'other families untouched');
});
