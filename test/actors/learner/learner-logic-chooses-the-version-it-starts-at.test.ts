// The version a learner starts at is its logic's choice, from the published version and its weights' own: a lone
// learner goes past a published version ahead of it (versions only go up), a group member keeps its own there (the
// group's next round brings it along), and either publishes its own when the published one is behind it (a crash lost
// the uploads past it). Equal: nothing to publish. The learner is `started` once the version is its own.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicOptions } from '../../../actors/learner/learner-logic.js';
import { freshStats, logicOptions } from './tiny.js';

/** The effects of `start` for a learner whose weights are at `own`, and its version once started. */
function start(own: number, published: number, o: LearnerLogicOptions): { effects: unknown[]; version: number; phase: string } {
  const s = initialLearnerState<string>(freshStats(own), [], 0);
  const { effects } = transition(s, { type: 'start', published, now: 0 }, o);
  const pub = effects.find((f) => f.type === 'publish');
  if (pub?.type === 'publish') t.same(transition(s, { type: 'published', version: pub.version, now: 1 }, o).effects, [{ type: 'started' }], `started once ${pub.version} is published`);
  return { effects, version: s.stats.version, phase: s.phase };
}

t.test('the logic chooses the version it starts at', async (t) => {
  const lone = logicOptions();
  const member = logicOptions({ group: true, hostId: 'learner-a' });

  t.same(start(1, 4, lone).effects, [{ type: 'publish', version: 5 }], 'lone, published ahead: past it');
  t.equal(start(1, 4, lone).version, 5);
  t.same(start(3, 2, lone).effects, [{ type: 'publish', version: 3 }], 'lone, published behind: its own');
  t.same(start(3, 3, lone).effects, [{ type: 'started' }], 'lone, equal: nothing to publish');
  t.equal(start(3, 3, lone).version, 3);

  t.same(start(1, 4, member).effects, [{ type: 'started' }], 'group member behind the group: keeps its own, publishes nothing');
  t.equal(start(1, 4, member).version, 1);
  t.same(start(3, 2, member).effects, [{ type: 'publish', version: 3 }], 'group member ahead of the published: its own');
  t.equal(start(3, 2, member).phase, 'idle', 'and idle once started');
});
