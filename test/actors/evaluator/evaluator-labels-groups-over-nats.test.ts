// The evaluator actor over real NATS: a TrajectoryGroup becomes one LabeledBatch whose stored regret equals the
// difference recomputed from the stored returns; the memory entry and the persisted designer baseline follow;
// a rejected environment becomes a penalised designer-only batch.
import t from 'tap';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { createEvaluatorActor, BASELINE_KEY, type BaselineState } from '../../../actors/evaluator/index.js';
import { MemoryStore } from '../../../actors/loop/memory/index.js';
import { EnvRejected, LabeledBatch, TrajectoryGroup } from '../../../actors/loop/messages.js';
import type { Connection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { Metric } from '../../../runtime/message-types.js';
import { decode, encode, type MessageType } from '../../../runtime/messages.js';
import { BUCKETS, STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { group } from './fixtures.js';

async function read<T>(conn: Connection, stream: string, subject: string, type: MessageType<T>, want: number): Promise<T[]> {
  // An ephemeral consumer from the stream start (nats-server 2.9 has no multi-filter ordered consumers).
  const ci = await conn.jsm.consumers.add(stream, { ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, filter_subject: subject, inactive_threshold: 30e9 });
  const it = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  const out: T[] = [];
  for await (const m of it) {
    out.push(decode(type, m.data));
    if (out.length >= want) break;
  }
  await conn.jsm.consumers.delete(stream, ci.name);
  return out;
}

t.test('trajectory group and rejection in, labeled batches, memory stats and baseline out', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'eval', log: () => undefined });
  await host.start([(env) => createEvaluatorActor(env, { tau: 0.5, designerReward: 'regret' })], ['evaluator']);
  t.teardown(() => host.stop());

  const g = group('env-a', [1, 1, 0.5, 1], [0, 0.25, 0.5, 0]);
  await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, g), { msgID: 'group:env-a' });
  const [batch] = await read(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 1);
  const [stored] = await read(conn, STREAMS.trajectories, SUBJECTS.trajRaw, TrajectoryGroup, 1);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const hint = avg(stored!.episodes.filter((e) => e.hinted).map((e) => e.return));
  const noHint = avg(stored!.episodes.filter((e) => !e.hinted).map((e) => e.return));
  t.equal(batch!.regret, hint - noHint, 'stored regret = recomputed difference of stored returns');
  t.equal(batch!.returnHint, hint);
  t.equal(batch!.returnNoHint, noHint);
  t.equal(batch!.feasible, true);
  t.equal(batch!.designerReward, hint - noHint);
  t.same(batch!.trajectories.map((x) => x.role), ['designer', 'agent', 'agent', 'agent', 'agent']);
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
  const batches = await read(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 2);
  const r = batches.find((b) => b.envId === 'env-r')!;
  t.equal(r.accepted, false);
  t.equal(r.designerReward, -1, 'rejected: penalty');
  t.equal(r.trajectories.length, 1);
  t.equal(r.trajectories[0]!.advantage, (-1 - (hint - noHint)) / 1, 'advantage against the baseline of one reward (std not yet known)');

  const kv = await conn.kvm.open(BUCKETS.policy);
  const state = JSON.parse(new TextDecoder().decode((await kv.get(BASELINE_KEY))!.value)) as BaselineState;
  t.equal(state.count, 2, 'baseline persisted in KV with both designer rewards');
  t.equal(state.mean, (hint - noHint - 1) / 2);

  const metrics = await read(conn, STREAMS.metrics, SUBJECTS.metrics('evaluator'), Metric, 10); // 8 for the played environment, 2 for the rejected one
  t.ok(metrics.some((m) => m.name === 'regret' && m.value === hint - noHint), 'regret metric published');
});
