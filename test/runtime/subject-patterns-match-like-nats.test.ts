// Pure logic: subject wildcard matching ('*' one token, '>' the rest) as nats-server applies it, which `spade tail`
// uses to find the streams a pattern covers.
import t from 'tap';
import { subjectCovers, subjectsOverlap } from '../../runtime/subject-match.js';

t.test('subject matching', async (t) => {
  t.ok(subjectsOverlap('spade.env.>', 'spade.>'));
  t.ok(subjectsOverlap('spade.env.>', 'spade.*.accepted'));
  t.notOk(subjectsOverlap('spade.env.>', 'spade.traj.>'));
  t.notOk(subjectsOverlap('spade.job.echo', 'spade.job'));
  t.ok(subjectCovers('spade.env.>', 'spade.env.accepted'));
  t.ok(subjectCovers('spade.*.x', 'spade.a.x'));
  t.notOk(subjectCovers('spade.env.>', 'spade.>'));
  t.notOk(subjectCovers('spade.env.*', 'spade.env.a.b'));
});
