// A group member's rounds are one at a time, and GroupTrainer keeps no queue of them: the learner's logic trains one
// update at a time on the logic driver. A round asked for while one runs is refused (LearnerStateError naming the
// round in progress) instead of being chained behind it; the round in progress goes on, and the next one is taken.
// Stubs: the first exchange waits until released, so the first round is still running when the second is asked for.
import t from 'tap';
import { isLearnerStateError } from '../../../actors/learner/errors.js';
import { GroupTrainer } from '../../../actors/learner/group/trainer.js';
import type { GroupReduce } from '../../../actors/learner/group/reduce.js';
import type { TrainerHandle } from '../../../actors/learner/trainer-thread.js';

t.test('a round asked for while one runs is refused, and the one running goes on', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const meta = new TextEncoder().encode(JSON.stringify({ norm: { designer: 0, agent: 0 }, ids: [], hash: 'h' }));
  const exchanges: string[] = [];
  const group = {
    options: { hostId: 'learner-a', log: () => undefined },
    bytesSent: 0,
    async exchange(round: number, part: string) {
      exchanges.push(`${round}.${part}`);
      if (exchanges.length === 1) await held;
      return { members: ['learner-a'], contributions: part === 'meta' ? [meta] : [new Uint8Array(0)], ms: 0 };
    },
    async recordIds() {},
    async appliedRound() {},
    async prune() {},
  } as unknown as GroupReduce;
  const trainer = { epochs: 1, step: 0, size: 1, hash: async () => 'h' } as unknown as TrainerHandle;
  const g = await GroupTrainer.start(trainer, group, 0);

  const first = g.update([]);
  await Promise.resolve();
  const second = await g.update([]).then(() => null, (err: unknown) => err);
  t.ok(isLearnerStateError(second), 'the overlapping round is refused with a LearnerStateError');
  t.match((second as Error).message, /round 1 runs/, 'naming the round in progress');
  release();
  t.equal((await first).group.round, 1, 'the round in progress completes');
  t.equal((await g.update([])).group.round, 2, 'and the next round is taken once it is done');
  t.same(exchanges, ['1.meta', '1.g0', '2.meta', '2.g0'], 'no exchange of the refused round');
});
