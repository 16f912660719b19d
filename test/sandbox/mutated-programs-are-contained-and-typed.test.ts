// The short variant of `npm run fuzz:envs`: mutated library modules and hostile-corpus programs (line edits, splices,
// truncations, hostile values and snippets that reach for the host, a canary global and a canary file) go through
// validate, reset and step. Every failure is typed, nothing reaches a canary, and the pool still serves a valid program.
import t from 'tap';
import { runEnvFuzz } from '../../scripts/fuzz-envs.js';

t.test('mutated programs are contained and every failure is typed', { timeout: 120_000 }, async (t) => {
  const r = await runEnvFuzz({ count: 30, seed: 14, log: t.comment });
  t.equal(r.programs, 31, 'the control and 30 mutated programs');
  t.ok(r.accepted > 0 && r.refused > 0, `some accepted (${r.accepted}), most refused (${r.refused})`);
  t.same(r.untyped, [], 'every failure is a typed error');
  t.ok(r.channelSeen > 0, `the leak channel carries what a snippet reads (${r.channelSeen} results held the control value)`);
  t.same(r.escapes, [], 'no result holds a canary secret, no canary file was written');
  t.ok(r.typedCallErrors > 0, `${r.calls} reset/step calls, ${r.typedCallErrors} refused with a typed error`);
  t.equal(r.servedValidFailed, 0, `the pool served a valid program each time it was asked (${r.servedValid})`);
});
