// An update that the trainer on its worker thread refuses (a token id past the vocabulary) comes back as a typed
// error naming the request, and the thread goes on serving the next update.
import t from 'tap';
import type { Row } from '../../../actors/learner/index.js';
import { isTrainerThreadError } from '../../../actors/learner/trainer-thread.js';
import { rows, startTrainerThread } from './trainer-thread-setup.js';

t.test('an update the trainer refuses is a typed error, and the thread keeps serving', async (t) => {
  const thread = await startTrainerThread();
  t.teardown(() => thread.close());
  const bad: Row = { trajId: 'x', tokens: [1, 2, 100_000], positions: [2], behaviour: new Float32Array([-1]), advantage: 1 };
  const err = await thread.update([bad]).then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(err), `typed: ${String(err)}`);
  t.match((err as Error).message, /'update'/, 'names the request that failed');
  const ok = await thread.update(rows());
  t.equal(ok.optimizerStep, 2, 'the next update runs');
});
