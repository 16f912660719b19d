// Every hostile message the fuzzer makes from the loop's catalog (random bytes, truncations, wrong-typed and
// out-of-range fields, huge arrays, deep nesting, wrong schema versions, other types) is refused by decode() with
// the MessageError code its kind calls for, quickly. Found by it: a NaN schema version was accepted (NaN compares
// false against both bounds).
import t from 'tap';
import { LOOP_MESSAGES } from '../../actors/loop/index.js';
import { hostileMessages } from '../../runtime/message-fuzz.js';
import { decode } from '../../runtime/messages.js';
import { mulberry32 } from '../helpers/random.js';

t.test('hostile messages are refused by decode with the code their kind calls for', async (t) => {
  const rng = mulberry32(14);
  let cases = 0;
  const wrong: string[] = [];
  let slowest = 0;
  for (const def of LOOP_MESSAGES) {
    for (const c of hostileMessages(def, 150, rng, LOOP_MESSAGES)) {
      cases++;
      let code = 'accepted';
      const t0 = performance.now();
      try {
        decode(def, c.bytes);
      } catch (err) {
        code = (err as { code?: string }).code ?? `untyped ${(err as Error).name}`;
      }
      slowest = Math.max(slowest, performance.now() - t0);
      if (!(c.expect as readonly string[]).includes(code)) wrong.push(`${def.type}: ${c.kind} → ${code} (expected ${c.expect.join(' or ')})`);
    }
  }
  t.equal(cases, LOOP_MESSAGES.length * 150, `${cases} cases`);
  t.same(wrong, [], 'each refused with its code');
  const kinds = new Set(LOOP_MESSAGES.flatMap((def) => hostileMessages(def, 30, mulberry32(1), LOOP_MESSAGES).map((c) => c.kind.split(' ')[0])));
  t.ok(kinds.size >= 10, `the cases cover many kinds (${[...kinds].join(', ')})`);
  t.ok(slowest < 1_000, `no case takes a second to refuse (slowest ${slowest.toFixed(0)} ms)`);
});
