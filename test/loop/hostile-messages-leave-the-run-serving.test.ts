// The short variant of `npm run fuzz:messages`: a whole run on a real nats-server while hostile messages go to every
// subject an actor consumes, before the host starts and while it runs. Each one on a pulled subject lands in the
// dead-letter subject with the code its kind calls for (an independent read of the dead-letter stream), each hostile
// sandbox request gets an error reply, and the run still finishes its iterations. The server requires per-role
// credentials: each hostile message comes from the role that may publish its subject, and the host meets no refusal.
import t from 'tap';
import { runMessageFuzz } from '../../scripts/fuzz-messages.js';

t.test('hostile messages on every consumed subject are dead-lettered and the run finishes', { timeout: 180_000 }, async (t) => {
  const r = await runMessageFuzz({ count: 6, seed: 14, iterations: 2, log: t.comment });
  t.ok(r.published >= 5 * 7, `${r.published} hostile messages on the pulled subjects`);
  t.same(r.missing, [], 'every one was dead-lettered');
  t.same(r.wrongCode, [], 'each with the code its kind calls for');
  t.equal(r.deadLettered, r.published);
  t.equal(r.sandboxErrorReplies, r.sandboxRequests, `all ${r.sandboxRequests} hostile sandbox requests got an error reply`);
  t.ok(r.followed > 0, `${r.followed} hostile messages on the coordinator's followed subjects`);
  t.same(r.refused, [], 'the server refused the host nothing (per-role users)');
  t.equal(r.hostExit, 0, 'the host exited cleanly');
  t.equal(r.iterationsDone, 2, 'the run finished its iterations');
});
