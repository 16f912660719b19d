// The short cluster variant of `npm run chaos -- --cluster`: one host process per role on a 3-node JetStream cluster
// (R3 streams, per-role users) the test owns; a scheduler SIGKILLs a random role's process every 8 s and restarts it,
// and kills and restarts one of the servers (same name, ports and store). Nothing is lost or applied twice, the run
// completes, and every replica of every stream is current again at the end: the restarted server caught up.
// Not in `npm test`: run it with `npm run test:soak`. In a loaded full-suite run (session 8) its coordinator exited 1
// at the final restart once in four runs: its declare timed out about 1 s after the last fault, a server restart
// (reproduced in session 9, 1 of 4 runs; fixed by declareTopology's retry, docs/reliability.md fix 3; 8 of 8 runs after
// it completed, at load 6–14). The single-server short variant stays in the suite.
import t from 'tap';
import { runChaos } from '../../scripts/chaos.js';
import { checkNothingLost } from '../helpers/chaos.js';

// Longer than the suite's per-file limit: a whole run of six processes on a loaded machine.
t.setTimeout(420_000);

t.test('in a 3-node cluster, under SIGKILLs of role processes and of a server, nothing is lost and the server catches up', { timeout: 420_000 }, async (t) => {
  const r = await runChaos({ minutes: 0.5, seed: 5, intervalMs: 8_000, serverKills: true, cluster: true, ackWaitMs: 5_000, log: t.comment });
  t.equal(r.servers, 3, 'three servers');
  t.equal(r.serverKills, 1, 'one server was killed and restarted');
  t.equal(r.kills, 2, 'two role processes were killed and restarted');
  checkNothingLost(t, r);
  t.same(r.behind, [], 'every replica of every stream caught up after the restart');
});
