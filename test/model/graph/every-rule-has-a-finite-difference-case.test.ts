// Every vector-Jacobian rule in the table has at least one finite-difference case.
import t from 'tap';
import { RULES } from '../../../model/graph/rules.js';
import { cases } from './rule-cases.js';

t.test('every rule in the table has at least one check', async (t) => {
  const covered = new Set(cases.map((c) => c.rule));
  t.same(Object.keys(RULES).filter((r) => !covered.has(r)), []);
});
