// The probe's buffer scores a setting by the variance of its groups' returns and replays by that score mixed with
// staleness: a setting whose episodes all agree (no GRPO signal) is drawn only through staleness, an in-band one
// mostly.
import t from 'tap';
import { SettingsBuffer, validateBufferOptions, variance } from '../../probe/index.js';
import { makeRandom } from '../../sandbox/index.js';

const setting = (family: string, n: number) => ({ family, knobs: { N: n }, code: `const N = ${n};\n` });

t.test('score is the smoothed return variance; replays favour it', async (t) => {
  t.equal(variance([0, 1, 0, 1]), 0.25, 'p(1 − p) at p = 1/2');
  t.equal(variance([1]), 0);
  const b = new SettingsBuffer(validateBufferOptions({ staleness: 0.2, emaRate: 0.5 }));
  const flat = b.add(setting('a', 1), true), band = b.add(setting('a', 2));
  t.equal(b.add(setting('a', 2)), band, 'the same knob values are the same entry');
  b.observe(flat.key, [1, 1, 1, 1], [1, 1, 1, 1], 0);
  b.observe(band.key, [0, 1, 0, 1], [1, 1, 0, 1], 0);
  t.equal(flat.score, 0);
  t.equal(band.score, (0.25 + 0.1875) / 2, 'the mean of the arms\' variances');
  b.observe(band.key, [0, 0, 0, 0], [], 1);
  t.equal(band.score, 0.5 * 0.21875 + 0.5 * 0, 'an EMA over visits; an arm not played is left out');
  const p = b.probabilities(2);
  t.ok(Math.abs(p[0]! + p[1]! - 1) < 1e-12, 'a distribution');
  t.ok(p[1]! > 0.8 && p[0]! > 0, 'the in-band setting mostly, the flat one through staleness only');
  const random = makeRandom(3);
  let bandPicks = 0;
  for (let i = 0; i < 1000; i++) bandPicks += Number(b.pick(1, 2, random)[0] === band);
  t.ok(bandPicks > 800 && bandPicks < 1000, `drawn by the distribution (${bandPicks}/1000)`);
  t.equal(b.pick(5, 2, random).length, 2, 'no more than there are');
  const flatOnly = new SettingsBuffer();
  const old = flatOnly.add(setting('a', 1)), recent = flatOnly.add(setting('a', 2));
  flatOnly.observe(old.key, [0, 0], [], 0);
  flatOnly.observe(recent.key, [0, 0], [], 9);
  t.same(flatOnly.probabilities(10), [10 / 11, 1 / 11], 'with no score anywhere, staleness alone decides');
});

