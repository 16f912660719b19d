// The live view's writer: on a TTY each refresh moves the cursor up over the previous screen and clears it (lines cut
// to the terminal's width, so a wrapped line cannot throw the count off); elsewhere each refresh is one plain line.
import t from 'tap';
import { PassThrough } from 'node:stream';
import { ViewWriter } from '../../../actors/coordinator/run-view.js';

function terminal(columns: number): NodeJS.WriteStream & { text(): string } {
  const s = new PassThrough() as unknown as NodeJS.WriteStream & { text(): string };
  let out = '';
  (s as unknown as PassThrough).on('data', (b: Buffer) => (out += b.toString()));
  Object.assign(s, { columns, isTTY: true, text: () => out });
  return s;
}

t.test('the run view redraws in place on a TTY and appends one line otherwise', async (t) => {
  const tty = terminal(20);
  const w = new ViewWriter(tty, 'tty');
  w.write('progress [##..] 50%\nSPADE run — a line far wider than twenty columns');
  w.write('progress [####] 100%\nSPADE run — done');
  const out = tty.text();
  t.equal(out.split('\x1b[2A\x1b[0J').length, 2, 'the second refresh moves up over the two lines of the first and clears them');
  t.notOk(out.split('\n').some((l) => l.replace(/\x1b\[\d*[AJ]/g, '').length > 19), 'no line is wider than the terminal');
  t.match(out, /SPADE run — a line…\n/, 'a cut line ends with an ellipsis');

  const log = terminal(20);
  new ViewWriter(log, 'lines').write('progress [##..]  50% of 4 iterations\nSPADE run   iteration 2/4');
  t.equal(log.text(), 'progress [##..] 50% of 4 iterations | SPADE run iteration 2/4\n', 'not a TTY: one appended line, no control codes');
});
