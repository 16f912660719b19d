// Pure logic: the schema validator's messages, envelope round trips, and subject wildcard matching.
import t from 'tap';
import * as s from '../../runtime/schema.js';
import { EchoJob } from '../../runtime/message-types.js';
import { decode, decodeAny, encode } from '../../runtime/messages.js';
import { subjectCovers, subjectsOverlap } from '../../runtime/subject-match.js';

t.test('schema errors name the path and the expected form', async (t) => {
  const schema = s.object({ a: s.array(s.object({ b: s.int({ min: 1 }) })), c: s.optional(s.string()) }, { strict: true });
  t.equal(schema.check({ a: [{ b: 1 }] }, 'x'), null);
  t.equal(schema.check({ a: [{ b: 1 }, { b: 0 }] }, 'x'), 'x.a[1].b: expected an integer >= 1, got 0');
  t.equal(schema.check({ a: [], z: 1 }, 'x'), 'x.z: unknown field (known: a, c)');
  t.equal(schema.check('nope', 'x'), 'x: expected an object, got "nope"');
});

t.test('messages round-trip and reject wrong bodies at the sender', async (t) => {
  const job = { id: 'a', payload: new Uint8Array([1, 2, 3]) };
  t.same(decode(EchoJob, encode(EchoJob, job)), job);
  t.equal(decodeAny(encode(EchoJob, job)).version, 1);
  t.throws(() => encode(EchoJob, { id: '', payload: new Uint8Array() }), /cannot send echo.job: echo.job.id/);
});

t.test('subject matching', async (t) => {
  t.ok(subjectsOverlap('spade.env.>', 'spade.>'));
  t.ok(subjectsOverlap('spade.env.>', 'spade.*.accepted'));
  t.notOk(subjectsOverlap('spade.env.>', 'spade.traj.>'));
  t.notOk(subjectsOverlap('spade.job.echo', 'spade.job'));
  t.ok(subjectCovers('spade.env.>', 'spade.env.accepted'));
  t.ok(subjectCovers('spade.*.x', 'spade.a.x'));
  t.notOk(subjectCovers('spade.env.>', 'spade.>'));
  t.notOk(subjectCovers('spade.env.*', 'spade.env.a.b'));
});
