// A knob edit the designer writes is refused, with the line and what was wrong, when a line is not `NAME = value`,
// names a knob the parent lacks, sets one twice, gives a value out of its kind, or changes nothing; blank lines and
// knobs left out are fine (they keep the parent's values).
import t from 'tap';
import { applyKnobEdit, loadLibraryEnvs } from '../../../actors/designer/index.js';

const door = loadLibraryEnvs().find((e) => e.name === 'door-code')!.code;

t.test('bad knob lines are refused, naming the line', async (t) => {
  for (const [text, reason] of [
    ['CODES: 5', /line 1 .*not a `NAME = value` line/],
    ['\nSPEED = 3', /line 2 .*no knob SPEED \(it has name, CODES, TRIES, DIGITS, COLOURS\)/],
    ['CODES = 5\nCODES = 6', /line 2 .*CODES is set twice/],
    ['TRIES = -1', /TRIES must be an integer in 0\.\.999999/],
    ['TRIES = 3.5', /TRIES must be an integer/],
    ['COLOURS = Red, blue', /COLOURS must be 1-32 lowercase words/],
    ['name = Harbour Code', /the name must be 1-64 of a-z, 0-9 and -/],
    ['CODES = 4\nname = door-code', /changes nothing/],
    ['', /changes nothing/],
  ] as const) {
    const r = applyKnobEdit(door, text);
    t.ok(!r.ok && reason.test(r.reason), `${JSON.stringify(text)} → ${r.ok ? 'accepted' : r.reason}`);
  }
  const ok = applyKnobEdit(door, '\n  name = gate-code  \n\nCOLOURS = ash, oak, elm\nTRIES = 4\n');
  t.ok(ok.ok, 'blank lines and spaces around a line are fine');
  if (!ok.ok) return;
  t.same(ok.changed, ['name', 'COLOURS', 'TRIES']);
  t.match(ok.code, /^const TRIES = 4;$/m);
  t.match(ok.code, /^const COLOURS = \['ash', 'oak', 'elm'\];$/m);
  t.match(ok.code, /^ {2}name: 'gate-code',$/m);
  t.match(ok.code, /^const CODES = 4;$/m, 'a knob left out keeps its value');
  t.equal(ok.code.replace("'gate-code'", "'door-code'").replace('TRIES = 4', 'TRIES = 3').replace("['ash', 'oak', 'elm']", "['red', 'blue', 'green', 'amber', 'white', 'black', 'grey', 'pink']"), door, 'nothing else changes');
});
