// Per-role NATS users on a real server: each role, connected with its own credentials, does what the loop asks of it
// (publish its outputs, pull and ack its inputs, its KV keys and the weights object store, request/reply with the
// sandbox, the host's heartbeat, metrics and dead letters; the coordinator declares the topology) and the reader
// reads it all; the server refuses none of it.
import t from 'tap';
import { Membership } from '../../runtime/membership.js';
import type { Connection } from '../../runtime/connection.js';
import type { PermissionError } from '../../runtime/errors.js';
import { followKv, followStream } from '../../runtime/follow.js';
import { READER } from '../../runtime/permissions.js';
import { listMembers } from '../../runtime/membership.js';
import { BUCKETS, learnerRoundKey, OBJECT_STORES, POLICY_KEYS, QUEUE_GROUPS, RUN_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS, durableName } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { authServer, connectAs } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Pulls one message from `role`'s durable on `stream` and acks it (waiting for the server's confirmation). */
async function take(conn: Connection, stream: string, role: string): Promise<string> {
  const m = await (await conn.js.consumers.get(stream, durableName(role))).next({ expires: 5_000 });
  if (!m) throw new Error(`nothing for ${role} on ${stream}`);
  await m.ackAck();
  return dec(m.data);
}

t.test('every role does its job; the server refuses nothing', async (t) => {
  const { config } = await authServer(t);
  const refused: PermissionError[] = [];
  const roles = ['coordinator', 'designer', 'agent', 'sandbox', 'evaluator', 'learner', 'echo', READER] as const;
  const c = {} as Record<(typeof roles)[number], Connection>;
  for (const r of roles) c[r] = await connectAs(t, config, r, refused);
  // A cluster without the admin's credentials: the coordinator declares the topology, and again (the update path).
  await ensureTopology(c.coordinator, config);
  await ensureTopology(c.coordinator, config);

  // The sandbox answers validation and step requests in its queue group, and on its own host subject.
  for (const s of [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep]) c.sandbox.nc.subscribe(s, { queue: QUEUE_GROUPS.sandbox, callback: (_e, m) => void m.respond(enc(`answer:${m.subject}`)) });
  c.sandbox.nc.subscribe(SUBJECTS.sandboxStepOnHost('h1'), { callback: (_e, m) => void m.respond(enc('answer:host')) });
  await c.sandbox.nc.flush();

  await c.coordinator.js.publish(SUBJECTS.jobDesign, enc('design-1'), { msgID: 'design-1' });
  await (await c.coordinator.kvm.open(BUCKETS.run)).put(RUN_KEYS.nextIteration, enc('1'));

  t.equal(await take(c.designer, STREAMS.jobsDesign, 'designer'), 'design-1', 'designer pulls its job');
  t.equal(dec((await c.designer.nc.request(SUBJECTS.sandboxValidate, enc('code'), { timeout: 5_000 })).data), `answer:${SUBJECTS.sandboxValidate}`, 'designer asks the sandbox');
  await c.designer.js.publish(SUBJECTS.envAccepted, enc('env-1'), { msgID: 'env-1' });
  await c.designer.js.publish(SUBJECTS.jobRollout, enc('rollout-1'), { msgID: 'rollout-1' });
  await (await c.designer.kvm.open(BUCKETS.envMemory)).create('env-1', enc('entry'));

  t.equal(await take(c.agent, STREAMS.jobsRollout, 'agent'), 'rollout-1', 'agent pulls its rollout');
  t.equal(dec((await c.agent.nc.request(SUBJECTS.sandboxStep, enc('step'), { timeout: 5_000 })).data), `answer:${SUBJECTS.sandboxStep}`, 'agent steps');
  t.equal(dec((await c.agent.nc.request(SUBJECTS.sandboxStepOnHost('h1'), enc('step'), { timeout: 5_000 })).data), 'answer:host', 'agent steps on one host');
  await c.agent.js.publish(SUBJECTS.trajRaw, enc('group-1'), { msgID: 'group-1' });

  t.equal(await take(c.evaluator, STREAMS.trajectories, 'evaluator'), 'group-1', 'evaluator pulls raw trajectories');
  await c.evaluator.js.publish(SUBJECTS.trajLabeled, enc('batch-1'), { msgID: 'batch-1' });
  await (await c.evaluator.kvm.open(BUCKETS.policy)).create(POLICY_KEYS.designerBaseline, enc('{}'));
  const memory = await c.evaluator.kvm.open(BUCKETS.envMemory);
  await memory.update('env-1', enc('entry+stats'), (await memory.get('env-1'))!.revision);

  t.equal(await take(c.learner, STREAMS.trajectories, 'learner'), 'batch-1', 'learner pulls labeled batches');
  const weights = await c.learner.objm.open(OBJECT_STORES.weights);
  await weights.putBlob({ name: 'policy/v1-a' }, enc('w1'));
  await weights.putBlob({ name: 'policy/v2-b' }, enc('w2'));
  await weights.delete('policy/v1-a');
  const policy = await c.learner.kvm.open(BUCKETS.policy);
  await policy.put(POLICY_KEYS.version, enc('v2'));
  const lock = await policy.create(POLICY_KEYS.learnerLock, enc('me'));
  await policy.delete(POLICY_KEYS.learnerLock, { previousSeq: lock });
  await (await c.learner.kvm.open(BUCKETS.learners)).put('h1', enc('{}'));
  await (await c.learner.kvm.open(BUCKETS.learnerRounds)).create(learnerRoundKey(1, 'ids'), enc('[]'));
  await c.learner.js.publish(SUBJECTS.learnerReduce, enc('part'));
  c.learner.nc.publish(SUBJECTS.learnerBatches, enc('{}'));
  c.learner.nc.publish(SUBJECTS.weightsLive, enc('chunk'));
  await c.learner.nc.flush();

  // Samplers read the version and the weights the learner wrote.
  const version = await followKv(await c.agent.kvm.open(BUCKETS.policy), POLICY_KEYS.version);
  for await (const e of version) {
    t.equal(dec(e.value), 'v2', 'agent watches the policy version');
    break;
  }
  t.equal(dec((await (await c.agent.objm.open(OBJECT_STORES.weights)).getBlob('policy/v2-b'))!), 'w2', 'agent downloads the weights');

  await c.echo.js.publish(SUBJECTS.resultEcho, enc('r'));
  for (const r of roles.filter((r) => r !== READER)) {
    await c[r].js.publish(SUBJECTS.metrics(r), enc('m'));
    await c[r].js.publish(SUBJECTS.deadLetter(r), enc('d'));
    const m = new Membership(c[r], `host-${r}`, [r], 60_000, () => ({ inflight: 0, handled: 0, failed: 0, deadLettered: 0, draining: false }));
    await m.start();
    t.teardown(() => m.stop());
  }

  // The reader sees the run: streams and consumers (status), members, every stored trajectory (tail).
  const streams: string[] = [];
  for await (const si of c.reader.jsm.streams.list()) streams.push(si.config.name);
  t.ok(streams.includes(STREAMS.trajectories), 'reader lists streams');
  t.equal((await c.reader.jsm.consumers.info(STREAMS.trajectories, durableName('learner'))).num_pending, 0, 'reader reads consumer lag');
  t.equal((await listMembers(c.reader)).length, roles.length - 1, 'reader lists members');
  const seen: string[] = [];
  const tail = await followStream(c.reader, { stream: STREAMS.trajectories, filter: SUBJECT_WILDCARDS.traj, from: 'all' });
  for await (const m of tail) if (seen.push(m.subject) === 2) break;
  t.same(seen, [SUBJECTS.trajRaw, SUBJECTS.trajLabeled], 'reader follows the trajectories');

  await Promise.all(roles.map((r) => c[r].nc.flush()));
  t.same(refused.map((e) => e.message), [], 'the server refused nothing');
});
