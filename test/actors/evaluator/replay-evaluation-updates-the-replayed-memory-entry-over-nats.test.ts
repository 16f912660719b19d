// The evaluator over real NATS, given a replay's trajectory group (loop.replay): the labeled batch carries replayOf
// and only agent episodes (nothing for the designer, whose baseline does not move), the replayed environment's memory
// entry gets the new evaluation, and the replay creates no memory entry of its own; metrics are tagged replayOf.
import t from 'tap';
import { createEvaluatorActor, BASELINE_KEY } from '../../../actors/evaluator/index.js';
import { MemoryStore } from '../../../actors/loop/memory/index.js';
import { LabeledBatch, TrajectoryGroup } from '../../../actors/loop/messages.js';
import { ActorHost } from '../../../runtime/host.js';
import { Metric } from '../../../runtime/message-types.js';
import { encode } from '../../../runtime/messages.js';
import { BUCKETS, STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { readUntil } from '../../helpers/streams.js';
import { acceptedEnv, group } from './fixtures.js';

t.test('a replay updates the entry it replays and trains no designer', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'eval', log: () => undefined });
  await host.start([(env) => createEvaluatorActor(env, { tau: 0.5, designerReward: 'regret' })], ['evaluator']);
  t.teardown(() => host.stop());

  const design = group('env-d', [1, 1, 0, 1], [0, 0, 0, 0]);
  await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, design), { msgID: 'group:env-d' });
  await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 1);
  const replay = { ...group('env-r', [1, 1, 1, 1], [1, 0, 1, 1]), env: { ...acceptedEnv('env-r', false), parents: ['env-d'], replayOf: 'env-d' } };
  await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, replay), { msgID: 'group:env-r' });
  const batches = await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 2);
  const b = batches.find((x) => x.envId === 'env-r')!;
  t.equal(b.replayOf, 'env-d');
  t.ok(b.trajectories.every((x) => x.role === 'agent'), 'agent episodes only');
  t.equal(b.returnNoHint, 0.75);

  const memory = await MemoryStore.open(conn);
  t.teardown(() => memory.close());
  const entry = (await memory.get('env-d'))!.entry;
  t.same([entry.returnNoHint, entry.returnHint, entry.evaluations], [0.75, 1, 2], "the replayed entry holds the replay's evaluation, its second");
  t.equal(await memory.get('env-r'), null, 'no entry for the replay');

  const kv = await conn.kvm.open(BUCKETS.policy);
  t.equal((JSON.parse(new TextDecoder().decode((await kv.get(BASELINE_KEY))!.value)) as { count: number }).count, 1, "the designer baseline saw the design's reward only");
  const metrics = await readUntil(conn, STREAMS.metrics, SUBJECTS.metrics('evaluator'), Metric, 16);
  t.ok(metrics.filter((m) => m.tags?.envId === 'env-r').every((m) => m.tags?.replayOf === 'env-d'), 'the replay\'s metrics are tagged replayOf');
});
