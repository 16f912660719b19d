// Learner-group rounds over a real nats-server keep every member's weights bit-identical (hash checked) and follow a
// single trainer that sees all the rows; a member with no data takes part with an empty contribution; a member that
// stops is dropped from the round after the timeout while the others go on (its trajectories are not counted as
// applied); a member that joins from the group's weights and optimizer state goes on in lockstep.
import t from 'tap';
import { AdamW, ModelSession, initParameters, type AdamWState } from '../../../model/index.js';
import { GroupReduce, PolicyTrainer, trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { GroupTrainer } from '../../../actors/learner/group/trainer.js';
import { weightsHash } from '../../../actors/learner/param-vector.js';
import { LocalTrainer } from '../../../actors/learner/trainer-thread.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { TINY, traj } from './tiny.js';

const ADAMW = { schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 };
const OPTIONS = { kind: 'behaviour' as const, clipEps: 0.2, tisCap: 2, epochs: 2, microBatchTokens: 16 };
const limits = { contextLength: 32, vocab: 272 };
/** Rows of trajectories `t<i>`, each made from its own number. */
const rowsOf = (ids: string[]): Row[] => ids.flatMap((id) => {
  const i = Number(id.slice(1));
  return trajectoryRows(traj(id, [50 + i, 60 + i, 70 + i], i % 2 ? -0.5 : 1, 0), limits);
});

t.setTimeout(120_000);

t.test('group rounds agree, drop the silent, admit the joining', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const member = async (host: string, params = initParameters(TINY, 7), opt: AdamWState | null = null, round = 0): Promise<GroupTrainer> => {
    const conn = await connected(t, config);
    const group = await GroupReduce.start(conn, { hostId: host, roundTimeoutMs: 1_500, heartbeatMs: 200 }, round);
    t.teardown(() => group.close());
    const adamw = new AdamW(ADAMW);
    if (opt) adamw.loadState(opt);
    return GroupTrainer.start(new LocalTrainer(new PolicyTrainer(session, params, adamw, OPTIONS)), group, round);
  };
  const a = await member('learner-a');
  const b = await member('learner-b');
  const single = new PolicyTrainer(session, initParameters(TINY, 7), new AdamW(ADAMW), OPTIONS);

  // Round 1: both hold data. Round 2: only a does; b joins with nothing.
  for (const [ra, rb] of [[['t1', 't2'], ['t3']], [['t4', 't5'], []]] as const) {
    const [sa, sb] = await Promise.all([a.update(rowsOf([...ra])), b.update(rowsOf([...rb]))]);
    await single.update(rowsOf([...ra, ...rb]));
    t.equal(sa.group.hash, sb.group.hash, `round ${sa.group.round}: same weights hash`);
    t.equal(weightsHash(await a.trainer.weights()), weightsHash(await b.trainer.weights()), 'and the weights themselves agree bit for bit');
    t.same(sa.group.members, ['learner-a', 'learner-b']);
    t.same([...sa.group.ids].sort(), [...ra, ...rb].sort(), 'every trajectory of the round counted once');
    t.ok(sa.group.bytesSent > 0 && sa.group.commMs > 0);
  }
  let d = 0;
  for (const [k, w] of await a.trainer.weights()) for (let i = 0; i < w.length; i++) d = Math.max(d, Math.abs(w[i]! - single.weights.get(k)![i]!));
  t.ok(d < 1e-5, `the group follows one trainer that saw every row (max difference ${d})`);
  t.not(weightsHash(await a.trainer.weights()), weightsHash(initParameters(TINY, 7)), 'and the weights moved');

  // b stops taking part (as if killed): a's round goes on without it after the timeout; b's ids are not applied.
  const t0 = Date.now();
  const alone = await a.update(rowsOf(['t6']));
  t.same(alone.group.members, ['learner-a'], 'b was dropped from round 3');
  t.same(alone.group.ids, ['t6']);
  t.ok(Date.now() - t0 >= 1_000, 'after waiting for it');

  // c joins from a's weights and optimizer state at round 3 and takes part in round 4.
  const st = await a.trainer.state();
  const c = await member('learner-c', new Map([...st.weights].map(([k, v]) => [k, v.slice()])), st.optimizer, a.round);
  await c.group.appliedRound(3);
  const [s4a, s4c] = await Promise.all([a.update(rowsOf(['t7'])), c.update(rowsOf(['t8', 't9']))]);
  t.same(s4a.group.members, ['learner-a', 'learner-c']);
  t.equal(s4a.group.hash, s4c.group.hash, 'the joiner agrees bit for bit');
  t.same([...s4c.group.ids].sort(), ['t7', 't8', 't9']);
});
