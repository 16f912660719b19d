// The warm start's edits: a child of a library parent takes its new name and word list from the document, moves one or
// two knobs, and says what it changed; most children of the small families still pass the loop's validation (the
// warm start keeps only those), and a module without knobs has no child. Real sandbox.
import t from 'tap';
import { knobsOf, specNameOf } from '../../actors/designer/index.js';
import { SandboxPool, makeRandom } from '../../sandbox/index.js';
import { documentWords, loadLibrary, mutate } from '../../warmstart/index.js';

const DOC = 'The harbour ferry sails from the granite pier to the lighthouse island; gulls circle the market square and fishing boats.';
const library = loadLibrary();

t.test('mutated children validate and use the document', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const words = new Set(documentWords(DOC));
  t.ok(words.has('harbour') && !words.has('the'), 'document words leave common words out');
  let valid = 0, tried = 0;
  for (const name of ['door-code', 'step-to-mark', 'window-search', 'ticket-close']) {
    const parent = library.find((e) => e.name === name)!;
    const random = makeRandom(11);
    for (let i = 0; i < 3; i++) {
      const m = mutate(parent.code, DOC, random)!;
      t.not(m.code, parent.code, `${name}: the child differs`);
      const childName = specNameOf(m.code)!.name;
      t.ok(words.has(childName.split('-')[0]!), `${name}: the child's name ${childName} starts with a document word`);
      t.match(m.edits[0], /^name /, 'the rename is listed first');
      const before = knobsOf(parent.code).filter((k) => k.kind === 'int').map((k) => k.value).join(',');
      const after = knobsOf(m.code).filter((k) => k.kind === 'int').map((k) => k.value).join(',');
      t.not(after, before, `${name}: an integer knob moved (${m.edits.join('; ')})`);
      tried++;
      if ((await pool.validate(m.code, { seeds: 8 })).ok) valid++;
    }
  }
  t.ok(valid >= tried / 2, `${valid}/${tried} children validate`);
  const plain = library.find((e) => knobsOf(e.code).length === 0)!;
  t.equal(mutate(plain.code, DOC, makeRandom(1)), null, `${plain.name} has no knobs: no child`);
});
