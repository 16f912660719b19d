// The evaluator actor over real NATS: a TrajectoryGroup becomes one LabeledBatch whose stored regret equals the
// difference recomputed from the stored returns; the memory entry and the persisted designer baseline follow;
// a rejected environment becomes a penalised designer-only batch.
import t from 'tap';
import { createEvaluatorActor, BASELINE_KEY, type BaselineState } from '../../../actors/evaluator/index.js';
import { MemoryStore } from '../../../actors/loop/memory/index.js';
import { EnvRejected, LabeledBatch, TrajectoryGroup } from '../../../actors/loop/messages.js';
import { ActorHost } from '../../../runtime/host.js';
import { Metric } from '../../../runtime/message-types.js';
import { encode } from '../../../runtime/messages.js';
import { BUCKETS, STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { readUntil } from '../../helpers/streams.js';
import { group } from './fixtures.js';

t.test('trajectory group and rejection in, labeled batches, memory stats and baseline out', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'eval', log: () => undefined });
  await host.start([(env) => createEvaluatorActor(env, { tau: 0.5, designerReward: 'regret' })], ['evaluator']);
  t.teardown(() => host.stop());

  const g = group('env-a', [1, 1, 0.5, 1], [0, 0.25, 0.5, 0]);
  await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, g), { msgID: 'group:env-a' });
  const [batch] = await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 1);
  const [stored] = await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajRaw, TrajectoryGroup, 1);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const hint = avg(stored!.episodes.filter((e) => e.hinted).map((e) => e.return));
  const noHint = avg(stored!.episodes.filter((e) => !e.hinted).map((e) => e.return));
  t.equal(batch!.regret, hint - noHint, 'stored regret = recomputed difference of stored returns');
  t.equal(batch!.returnHint, hint);
  t.equal(batch!.returnNoHint, noHint);
  t.equal(batch!.feasible, true);
  t.equal(batch!.designerReward, hint - noHint);
  t.same(batch!.trajectories.map((x) => x.role), ['designer', ...Array(8).fill('agent')], 'the designer and both arms of 4 episodes');
  const agentAdv = batch!.trajectories.filter((x) => x.role === 'agent').map((x) => x.advantage);
  t.ok(Math.abs(agentAdv.reduce((a, b) => a + b, 0)) < 1e-9, 'agent advantages are centred per environment');

  const memory = await MemoryStore.open(conn);
  const entry = (await memory.get('env-a'))!.entry;
  t.equal(entry.regret, hint - noHint, 'memory entry regret');
  t.equal(entry.returnHint, hint);
  t.equal(entry.returnNoHint, noHint);
  t.equal(entry.feasible, true);
  t.equal(entry.evaluated, true);
  t.equal(entry.source, 'designer', 'created from the environment when the designer had not written it');

  const rej = { envId: 'env-r', jobId: 'j-r', iteration: 3, code: 'oops', stage: 'parse', reason: 'SyntaxError', parents: [], designer: g.env.designer! };
  await conn.js.publish(SUBJECTS.envRejected, encode(EnvRejected, rej), { msgID: 'rej:env-r' });
  const batches = await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 2);
  const r = batches.find((b) => b.envId === 'env-r')!;
  t.equal(r.accepted, false);
  t.equal(r.designerReward, -1, 'rejected: penalty');
  t.equal(r.trajectories.length, 1);
  t.equal(r.trajectories[0]!.advantage, (-1 - (hint - noHint)) / 1, 'advantage against the baseline of one reward (std not yet known)');

  const kv = await conn.kvm.open(BUCKETS.policy);
  const state = JSON.parse(new TextDecoder().decode((await kv.get(BASELINE_KEY))!.value)) as BaselineState;
  t.equal(state.count, 2, 'baseline persisted in KV with both designer rewards');
  t.equal(state.mean, (hint - noHint - 1) / 2);

  const metrics = await readUntil(conn, STREAMS.metrics, SUBJECTS.metrics('evaluator'), Metric, 10); // 8 for the played environment, 2 for the rejected one
  t.ok(metrics.some((m) => m.name === 'regret' && m.value === hint - noHint), 'regret metric published');
});
