// The same (code, seed, actions) gives the same observations and rewards on the live path, on the replay path,
// on another worker thread and in another pool.
import t from 'tap';
import { SandboxPool, type StepResult } from '../../sandbox/index.js';
import { VALID_CODE } from './helpers.js';

const strip = (r: StepResult) => ({ ...r, live: undefined });

t.test('live, replayed and cross-pool transcripts agree', async (t) => {
  const a = new SandboxPool({ workers: 2, callTimeoutMs: 500 });
  const b = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const ids = a.threadIds();
  t.equal(new Set(ids).size, 2, 'two distinct worker threads');
  for (const seed of [1, 2, 3]) {
    const first = await a.reset({ code: VALID_CODE, seed, episodeId: `ep-${seed}` });
    const again = await b.reset({ code: VALID_CODE, seed });
    t.equal(again.observation, first.observation, `seed ${seed}: reset agrees`);
    const actions: string[] = [];
    for (const act of ['9', '7', 'x', '9', '8', '9', '9', '9']) {
      actions.push(act);
      const live = await a.step({ codeHash: first.codeHash, seed, actions: [...actions], episodeId: `ep-${seed}` });
      t.ok(live.live, 'served by the live instance');
      // No episode id: every lane may serve it, each replaying from reset.
      const replayed = await a.step({ codeHash: first.codeHash, seed, actions: [...actions] });
      const other = await b.step({ code: VALID_CODE, seed, actions: [...actions] });
      t.notOk(replayed.live, 'replayed');
      t.same(strip(replayed), strip(live), `seed ${seed} turn ${live.turn}: replay agrees`);
      t.same(strip(other), strip(live), `seed ${seed} turn ${live.turn}: other pool agrees`);
      if (live.done) break;
    }
  }
});
