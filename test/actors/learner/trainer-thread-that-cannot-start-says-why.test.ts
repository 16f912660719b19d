// A trainer thread whose start fails (here: an optimizer state with a negative step) rejects start() with a typed
// error that says it could not start and why.
import t from 'tap';
import { isTrainerThreadError } from '../../../actors/learner/trainer-thread.js';
import { startTrainerThread } from './trainer-thread-setup.js';

t.test('a thread that cannot start says why', async (t) => {
  const err = await startTrainerThread(undefined, { step: -1, m: new Map(), v: new Map() }).then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(err), String(err));
  t.match((err as Error).message, /could not start.*step/);
});
