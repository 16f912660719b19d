// `spade eval` with a missing or bad argument exits 2 naming the argument; a checkpoint directory that does not
// exist is a typed error (EvalCheckpointError) naming it.
import t from 'tap';
import { isEvalCheckpointError } from '../../eval/errors.js';
import { caughtAsync } from '../model/tokenizer/helpers.js';
import { BASE, FIXTURE_SUITE, runEvalCommand } from './run-eval-command.js';

t.test('usage errors exit 2 and name the argument; a missing checkpoint is a typed error', async (t) => {
  for (const [argv, what] of [[['--suite', FIXTURE_SUITE], /CHECKPOINT/], [[BASE], /--suite/], [[BASE, '--suite', FIXTURE_SUITE, '--hint', 'x'], /--hint/],
    [[BASE, '--suite', FIXTURE_SUITE, '--seeds', '0'], /--seeds/]] as const) {
    const r = await runEvalCommand([...argv]);
    t.equal(r.code, 2);
    t.match(r.stderr, what);
  }
  const missing = await caughtAsync(() => runEvalCommand([`${BASE}-missing`, '--suite', FIXTURE_SUITE]));
  t.ok(isEvalCheckpointError(missing) && missing.checkpoint === `${BASE}-missing`, String(missing));
});
