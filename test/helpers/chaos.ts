// Test helper: what every chaos soak variant must show, whatever its faults: no host crashed, the server refused no
// role anything, trajectories flowed, none lost or applied twice, each applied or dropped with a reason, every raw
// group and rejected environment labeled, and the coordinator finished what it issued.
import type { Test } from 'tap';
import type { ChaosReport } from '../../scripts/chaos.js';

export function checkNothingLost(t: Test, r: ChaosReport): void {
  t.equal(r.crashes, 0, 'no host exited on its own');
  t.same(r.refusedLines, [], 'the server refused no role anything (per-role users)');
  t.ok(r.published > 0, `${r.published} trajectories labeled over ${r.iterations} iterations`);
  t.same(r.lostIds, [], 'none lost');
  t.same(r.duplicatedIds, [], 'none applied twice');
  t.equal(r.applied + r.dropped, r.published, `each applied (${r.applied}) or dropped with a reason (${JSON.stringify(r.droppedBy)})`);
  t.same(r.unlabeledEnvs, [], 'every raw group and rejected environment was labeled');
  t.ok(r.completed, 'the coordinator finished every iteration it issued');
}
