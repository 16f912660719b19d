// The coordinator logic, fed events with no server: an iteration whose design jobs are all labeled is archived and
// writes a metrics line, and the last one finishes the run once (final line, view, shutdown request).
import t from 'tap';
import { transition, type CoordinatorEffect, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { freshState, labeledBatch as labeled } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 2, maxStaleness: 1, iterations: 3, minutes: Infinity };

t.test('labeled iterations write metrics; the last finishes the run once', async (t) => {
  const s = freshState();
  const types = (fx: CoordinatorEffect[]) => fx.map((f) => (f.type === 'metrics' ? `metrics:${f.line.event}` : f.type));
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e0'), now: 10 }, o).effects), ['archive'], 'half an iteration');
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e1'), now: 11 }, o).effects), ['archive', 'metrics:iteration']);
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e1'), now: 12 }, o).effects), [], 'archived once; the stats count the batch but the iteration is done');
  for (const [i, id] of [[1, 'e2'], [1, 'e3'], [2, 'e4']] as const) transition(s, { type: 'labeled', body: labeled(i, id), now: 13 }, o);
  t.same(types(transition(s, { type: 'labeled', body: labeled(2, 'e5'), now: 14 }, o).effects), ['archive', 'metrics:iteration', 'metrics:final', 'view', 'shutdown']);
  t.equal(s.finished, true);
  t.same(types(transition(s, { type: 'timeUp', now: 15 }, o).effects), [], 'finished once');
});
