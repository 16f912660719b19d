// A learner group member's trainer runs where loop.learner.host.ownThread puts it, as a lone learner's does: on its own
// worker thread by default (the group used to force the main thread), and a member on its own thread and one on the
// main thread take the same round to the same bits. Real nats-server, two GroupReducers loading the tiny model.
import t from 'tap';
import { trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { GroupReducer } from '../../../actors/learner/group/reducer.js';
import { roleTokens } from '../../../actors/learner/rows.js';
import type { GroupUpdateStats } from '../../../actors/learner/group/trainer.js';
import { validateLearnerOptions } from '../../../actors/learner/options.js';
import { weightsHash } from '../../../actors/learner/param-vector.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, traj } from './tiny.js';

const limits = { contextLength: 32, vocab: 272 };
const rowsOf = (ids: string[]): Row[] => ids.flatMap((id, i) => trajectoryRows(traj(id, [50 + i, 60 + i, 70 + i], i % 2 ? -0.5 : 1, 0), limits));

t.setTimeout(120_000);

t.test('a group member trains on its own thread unless host.ownThread is false', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const member = async (hostId: string, ownThread?: boolean) => {
    const reducer = await GroupReducer.start(await connected(t, config), { hostId, roundTimeoutMs: 20_000, heartbeatMs: 100, memberTtlMs: 5_000 });
    t.teardown(() => reducer.close());
    const o = validateLearnerOptions(learnerOptions({ group: { enabled: true }, ...(ownThread === undefined ? {} : { host: { ownThread } }) }));
    const m = await reducer.load(tempDir(t, `spade-${hostId}-`), o, 1);
    t.teardown(() => m.trainer.close());
    return { reducer, trainer: m.trainer };
  };
  const a = await member('learner-a');
  const b = await member('learner-b', false);
  t.equal(a.trainer.where, 'thread', 'by default the member trains on its own thread');
  t.equal(b.trainer.where, 'main', 'host.ownThread false keeps it on the main thread');

  for (const [ra, rb] of [[['t1', 't2'], ['t3']], [['t4'], []]] as const) {
    const [rowsA, rowsB] = [rowsOf([...ra]), rowsOf([...rb])];
    const [ua, ub] = await Promise.all([a.reducer.update(rowsA, roleTokens(rowsA), [...ra]), b.reducer.update(rowsB, roleTokens(rowsB), [...rb])]);
    const [ga, gb] = [(ua.stats as GroupUpdateStats).group, (ub.stats as GroupUpdateStats).group];
    t.same(ga.members, ['learner-a', 'learner-b'], `round ${ga.round}: both members in`);
    t.equal(ga.hash, gb.hash, `round ${ga.round}: the same weights on both threads`);
    t.equal(weightsHash(await a.trainer.weights()), ga.hash, 'the weights on the thread are the ones hashed');
    t.equal(weightsHash(await b.trainer.weights()), gb.hash, 'and those on the main thread');
    t.same([...ua.groupIds!].sort(), [...ra, ...rb].sort(), 'every trajectory of the round counted once');
  }
  t.equal(a.trainer.step, b.trainer.step, 'both took the same optimizer steps');
  t.ok(a.trainer.step > 0, 'and trained');
});
