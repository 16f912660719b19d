// A phase meter adds each measured call's wall time, thread CPU, tokens and FLOPs to its phase, also when the call
// throws; totals add up per phase.
import t from 'tap';
import { PhaseMeter, addTotals } from '../../runtime/phase-meter.js';
import { ThreadCpu } from '../../runtime/thread-cpu.js';

/** Busy until this thread has used `ms` more CPU (so the figure holds on a loaded machine), or 20 s went by. */
const spin = (ms: number): void => {
  const cpu = new ThreadCpu(), start = cpu.ms(), end = performance.now() + 20_000;
  while (cpu.ms() - start < ms && performance.now() < end);
};

t.test('calls are charged to their phase', async (t) => {
  const m = new PhaseMeter();
  await m.measure('busy', { tokens: 3, flops: 100 }, async () => spin(120));
  await m.measure('busy', { tokens: 2, flops: 50 }, async () => spin(10));
  await m.measure('idle', { tokens: 0, flops: 0 }, () => new Promise((r) => setTimeout(r, 120)));
  await t.rejects(m.measure('fails', { tokens: 1, flops: 1 }, async () => { throw new Error('boom'); }), /boom/);
  const s = m.snapshot();
  t.equal(s.busy!.calls, 2);
  t.equal(s.busy!.tokens, 5);
  t.equal(s.busy!.flops, 150);
  t.ok(s.busy!.wallMs >= 130, `busy wall ${s.busy!.wallMs}`);
  t.ok(s.busy!.cpuMs >= 120, `busy CPU ${s.busy!.cpuMs} ms`);
  t.ok(s.idle!.wallMs >= 110, 'a wait takes wall time');
  t.ok(s.idle!.cpuMs <= 40, `and little CPU (${s.idle!.cpuMs} ms)`);
  t.equal(s.fails!.calls, 1, 'a call that throws is counted');

  const sum = addTotals(s, { busy: { calls: 1, wallMs: 1, cpuMs: 1, tokens: 1, flops: 1 }, other: { calls: 1, wallMs: 2, cpuMs: 2, tokens: 0, flops: 0 } });
  t.equal(sum.busy!.calls, 3);
  t.equal(sum.busy!.flops, 151);
  t.equal(sum.other!.wallMs, 2);
  t.equal(s.busy!.calls, 2, 'addTotals leaves its inputs alone');
});
