// A trainer thread that dies (killed mid-update) fails the request in flight, unless it finished first, and every
// later one with a typed error saying the thread exited; close() on the dead thread is a no-op.
import t from 'tap';
import { isTrainerThreadError } from '../../../actors/learner/trainer-thread.js';
import { rows, startTrainerThread } from './trainer-thread-setup.js';

t.test('a thread that dies fails what is in flight and everything after, typed', async (t) => {
  const thread = await startTrainerThread();
  const inFlight = thread.update(rows()).then(() => null, (e: unknown) => e);
  await thread.kill();
  const err = await inFlight;
  t.ok(err === null || isTrainerThreadError(err), 'in flight: finished before the kill, or a typed error');
  const after = await thread.weights().then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(after), `after: ${String(after)}`);
  t.match((after as Error).message, /exited/);
  await thread.close(); // a no-op on a dead thread
});
