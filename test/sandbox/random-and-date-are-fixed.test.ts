// Inside the sandbox Math.random is the documented sfc32 stream for the reset seed (the same as makeRandom on the
// host), Date is frozen at the fixed epoch and local time is UTC.
import t from 'tap';
import { FIXED_EPOCH_MS, SandboxPool, makeRandom } from '../../sandbox/index.js';

const ENV = `export const spec = { name: "probe", description: "d", hint: "h", maxTurns: 2 };
export default class Env {
  reset(seed) {
    const xs = [Math.random(), Math.random(), Math.random()];
    const d = new Date(2020, 5, 15, 12, 30);
    return { observation: JSON.stringify({ xs, now: Date.now(), fresh: new Date().getTime(), hours: d.getHours(), iso: d.toISOString(), tz: d.getTimezoneOffset() }) };
  }
  step(a) { return { observation: String(Math.random()), reward: 0, terminated: true }; }
}`;

t.test('Math.random follows makeRandom(seed) and Date is fixed', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
  t.teardown(() => pool.close());
  for (const seed of [0, 1, 42, 2 ** 40 + 3, -7]) {
    const r = JSON.parse((await pool.reset({ code: ENV, seed })).observation);
    const host = makeRandom(seed);
    t.same(r.xs, [host(), host(), host()], `seed ${seed}`);
    t.equal(r.now, FIXED_EPOCH_MS);
    t.equal(r.fresh, FIXED_EPOCH_MS);
    t.equal(r.hours, 12, 'local hours are UTC hours');
    t.equal(r.iso, '2020-06-15T12:30:00.000Z');
    t.equal(r.tz, 0);
    const s = await pool.step({ code: ENV, seed, actions: ['a'] });
    t.equal(Number(s.observation), host(), 'the stream continues into step');
  }
});
