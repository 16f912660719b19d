// Every vector-Jacobian rule against float64 central differences, including broadcast and rank-0 shapes.
import t from 'tap';
import { fdCheck } from './fd-check.js';
import { cases } from './rule-cases.js';

const worst: Record<string, number> = {};

for (const c of cases) {
  t.test(`${c.rule}: ${c.name}`, async (t) => {
    const r = await fdCheck(c.specs, c.build, 7, c.eps);
    const tol = c.tol ?? 1e-7;
    worst[c.rule] = Math.max(worst[c.rule] ?? 0, r.maxAbsErr);
    t.ok(r.checked > 0, 'checked some elements');
    t.ok(r.maxAbsGrad > 0, 'gradient is not identically zero');
    t.ok(r.maxAbsErr < tol, `max abs error ${r.maxAbsErr.toExponential(2)} < ${tol}`);
  });
}

t.teardown(() => {
  console.log(`max FD error per rule: ${JSON.stringify(Object.fromEntries(Object.entries(worst).map(([k, v]) => [k, Number(v.toExponential(2))])))}`);
});
