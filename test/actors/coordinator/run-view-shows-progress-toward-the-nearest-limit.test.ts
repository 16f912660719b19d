// The live view's progress line: the fraction toward whichever limit of the run is nearest (iterations, minutes,
// policy-token budget), a bar of that width, and the time left at the pace so far; no line for an unbounded run.
import t from 'tap';
import { progress, progressText, renderView } from '../../../actors/coordinator/run-view.js';
import { emptyStats } from '../../../actors/coordinator/run-stats.js';

t.test('the run view shows progress toward the nearest limit with an ETA', async (t) => {
  const its = progress({ iterations: 10, elapsedSec: 60, tokens: 0 }, { iterations: 40, minutes: Infinity });
  t.same(its, { fraction: 0.25, of: '40 iterations', etaSec: 180 }, 'a quarter of the iterations in a minute leaves three');
  const mins = progress({ iterations: 10, elapsedSec: 240, tokens: 0 }, { iterations: 40, minutes: 5 });
  t.equal(mins!.of, '5 min', 'the minutes are nearer than the iterations: they set the bar');
  t.equal(mins!.fraction, 0.8);
  t.equal(progress({ iterations: 3, elapsedSec: 9, tokens: 500 }, { iterations: Infinity, minutes: Infinity, budgetTokens: 1000 })!.of, '1000 policy tokens', 'a token budget counts as a limit');
  t.equal(progress({ iterations: 3, elapsedSec: 9, tokens: 500 }, { iterations: Infinity, minutes: Infinity }), null, 'an unbounded run has no progress');
  t.equal(progress({ iterations: 50, elapsedSec: 9, tokens: 0 }, { iterations: 40, minutes: Infinity })!.fraction, 1, 'past the limit stays at 100%');

  t.equal(progressText(its!, 20), `[#####...............]  25% of 40 iterations, about 3.0 min left`);
  t.equal(progressText({ fraction: 0.5, of: '4 iterations', etaSec: 12.2 }, 10), '[#####.....]  50% of 4 iterations, about 13 s left');

  const s = emptyStats(0);
  s.iterationsDone = 1;
  t.match(renderView(s, 30_000, { iterations: 4, minutes: Infinity }), /^progress +\[#+\.+\] +25% of 4 iterations, about 1.5 min left\nSPADE run/, 'the view starts with the progress line');
  t.notMatch(renderView(s, 30_000, { iterations: Infinity, minutes: Infinity }), /progress/, 'no progress line without a limit');
});
