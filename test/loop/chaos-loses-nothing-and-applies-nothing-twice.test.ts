// The short variant of `npm run chaos`: one host process per role on a nats-server the test owns; a scheduler
// SIGKILLs a random role's process every 8 s and restarts it, and kills and restarts the server once (same port and
// store). The independent checker (the streams and the learner's ledger up to its checkpoint) finds every labeled
// trajectory applied once or dropped with a reason, and every raw group and rejected environment labeled. The server
// requires per-role credentials, so the run also shows the permission matrix lets every role do its job: no host
// logs a refusal.
import t from 'tap';
import { runChaos } from '../../scripts/chaos.js';
import { checkNothingLost } from '../helpers/chaos.js';

// Longer than the suite's per-file limit: a whole run of six processes on a loaded machine.
t.setTimeout(300_000);

t.test('under SIGKILLs of role processes and of the server nothing is lost or applied twice', { timeout: 300_000 }, async (t) => {
  const r = await runChaos({ minutes: 0.5, seed: 3, intervalMs: 8_000, serverKills: true, ackWaitMs: 5_000, log: t.comment });
  t.equal(r.kills, 2, 'two role processes were killed and restarted');
  t.equal(r.restarts, 2);
  t.equal(r.serverKills, 1, 'the server was killed and restarted once');
  checkNothingLost(t, r);
});
