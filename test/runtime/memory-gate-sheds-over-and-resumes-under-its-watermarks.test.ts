// The memory gate's hysteresis, without the runtime: it sheds at shedAt of the budget, keeps shedding until memory is
// under resumeAt, never sheds without a budget, and wakes whoever waits for it to open.
import t from 'tap';
import { MemoryGate, nextGateState, type GateState } from '../../runtime/memory-gate.js';

const MB = 2 ** 20;
const budget = { budgetBytes: 100 * MB, shedAt: 0.9, resumeAt: 0.75 };

t.test('memory gate sheds over and resumes under its watermarks', async (t) => {
  t.test('sheds at the soft fraction, resumes only under the lower watermark', async (t) => {
    let s: GateState = { shedding: false, rssBytes: 0 };
    const seen: boolean[] = [];
    for (const mb of [50, 89, 90, 95, 80, 76, 75, 74, 85, 89.9, 90]) {
      s = nextGateState(s, mb * MB, budget);
      seen.push(s.shedding);
    }
    t.same(seen, [false, false, true, true, true, true, true, false, false, false, true]);
  });

  t.test('no budget never sheds', async (t) => {
    t.equal(nextGateState({ shedding: false, rssBytes: 0 }, 1e15, { ...budget, budgetBytes: 0 }).shedding, false);
    t.equal(nextGateState({ shedding: true, rssBytes: 0 }, 1e15, { ...budget, budgetBytes: 0 }).shedding, false);
  });

  t.test('opened() waits while shedding and is told of each change once', async (t) => {
    let rss = 95 * MB;
    const changes: boolean[] = [];
    const gate = new MemoryGate({ ...budget, everyMs: 60_000, readRss: () => rss, onChange: (s) => changes.push(s.shedding) });
    gate.start();
    t.equal(gate.shedding, true);
    let opened = false;
    const waiting = gate.opened().then(() => (opened = true));
    rss = 80 * MB;
    gate.check();
    await new Promise((r) => setImmediate(r));
    t.equal(opened, false, 'still shedding between the watermarks');
    rss = 10 * MB;
    gate.check();
    await waiting;
    t.equal(opened, true);
    t.same(changes, [true, false]);
    gate.stop();
  });

  t.test('stop() lets waiters go', async (t) => {
    const gate = new MemoryGate({ ...budget, everyMs: 60_000, readRss: () => 99 * MB, onChange: () => undefined });
    gate.start();
    const waiting = gate.opened();
    gate.stop();
    await waiting;
    t.pass('released');
  });
});
