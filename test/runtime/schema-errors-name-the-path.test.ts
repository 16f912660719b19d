// Pure logic: a schema violation's message names the path of the offending field and the expected form.
import t from 'tap';
import * as s from '../../runtime/schema.js';

t.test('schema errors name the path and the expected form', async (t) => {
  const schema = s.object({ a: s.array(s.object({ b: s.int({ min: 1 }) })), c: s.optional(s.string()) }, { strict: true });
  t.equal(schema.check({ a: [{ b: 1 }] }, 'x'), null);
  t.equal(schema.check({ a: [{ b: 1 }, { b: 0 }] }, 'x'), 'x.a[1].b: expected an integer >= 1, got 0');
  t.equal(schema.check({ a: [], z: 1 }, 'x'), 'x.z: unknown field (known: a, c)');
  t.equal(schema.check('nope', 'x'), 'x: expected an object, got "nope"');
});
