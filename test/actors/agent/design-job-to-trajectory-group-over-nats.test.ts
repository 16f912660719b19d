// End to end over a real nats-server and the real ActorHost: designer and agent roles on one host, sharing one
// policy service (tiny random model). A design job in the fixed-environment baseline becomes env.accepted, a
// rollout job and a traj.group with 2k episodes, played through the sandbox role (remote mode, request/reply);
// a design job sampled from the tiny model, validated by a local pool, becomes env.accepted or env.rejected
// with the designer's sample.
import t from 'tap';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { createAgentActor } from '../../../actors/agent/agent-actor.js';
import { createDesignerActor } from '../../../actors/designer/designer-actor.js';
import { createSandboxActor } from '../../../actors/sandbox/sandbox-actor.js';
import { MemoryStore } from '../../../actors/loop/memory/memory-store.js';
import { DesignJob, type AcceptedEnv, type Episode } from '../../../actors/loop/messages.js';
import type { Connection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { decodeAny, encode } from '../../../runtime/messages.js';
import { STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { TINY_POLICY } from '../loop/policy/tiny-loop.js';

interface Seen { type: string; body: Record<string, unknown> }

/** Reads `stream` from the start until `done` says so; returns every decoded message. */
async function read(conn: Connection, stream: string, done: (seen: Seen[]) => boolean, timeoutMs = 60_000): Promise<Seen[]> {
  const ci = await conn.jsm.consumers.add(stream, { ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, inactive_threshold: 30e9 });
  const msgs = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  const seen: Seen[] = [];
  const timer = setTimeout(() => void msgs.close(), timeoutMs);
  for await (const m of msgs as AsyncIterable<JsMsg>) {
    const d = decodeAny(m.data);
    seen.push({ type: d.type, body: d.body as Record<string, unknown> });
    if (done(seen)) break;
  }
  clearTimeout(timer);
  await msgs.close();
  return seen;
}

const common = { k: 2, policy: TINY_POLICY, sandbox: { mode: 'local' as const, workers: 1 }, agent: { maxTokens: 6, maxTurns: 4 } };

t.test('design job → env → 2k episodes', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], ['delivery.ackWaitMs=10000']);
  const conn = await connected(t, config);

  const host = new ActorHost({ conn, config, hostId: 'loop-host', log: () => undefined });
  const remote = { ...common, sandbox: { mode: 'remote' as const, workers: 1 } };
  const designer = createDesignerActor({ options: { ...remote, ablations: { fixedEnvs: true } } });
  const agent = createAgentActor({ options: remote });
  const sandbox = createSandboxActor({ pool: { workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 } });
  await host.start([() => sandbox, () => designer, () => agent], ['sandbox', 'designer', 'agent']);
  t.teardown(() => host.stop());

  await conn.js.publish(SUBJECTS.jobDesign, encode(DesignJob, { jobId: 'job-e2e', iteration: 0, seed: 3 }), { msgID: 'design:job-e2e' });
  const envs = await read(conn, STREAMS.envs, (s) => s.length >= 1);
  t.equal(envs[0]!.type, 'env.accepted');
  const env = envs[0]!.body as unknown as AcceptedEnv;
  t.equal(env.envId, 'env-job-e2e');
  const groups = await read(conn, STREAMS.trajectories, (s) => s.some((x) => x.type === 'traj.group'));
  const group = groups.find((x) => x.type === 'traj.group')!.body as { groupId: string; env: AcceptedEnv; episodes: Episode[] };
  t.equal(group.env.envId, env.envId);
  t.equal(group.episodes.length, 4, '2k episodes for k = 2');
  t.same(group.episodes.map((e) => e.hinted), [false, false, true, true]);
  t.ok(group.episodes.every((e) => e.error === undefined), 'no environment faults through the sandbox role');
  t.ok(group.episodes.every((e) => e.turns.length >= 1 && e.turns.every((s) => s.tokens.byteLength > 0 && s.versions.byteLength === s.tokens.byteLength)), 'every turn is recorded');
  t.equal(agent.stats.groups, 1);
  const metrics = await read(conn, STREAMS.metrics, (s) => s.some((x) => x.body['role'] === 'agent' && x.body['name'] === 'episodes'));
  t.match(metrics.find((x) => x.body['role'] === 'agent' && x.body['name'] === 'episodes')!.body, { value: 4 }, 'the agent reports its episodes');
  t.match(metrics.find((x) => x.body['role'] === 'designer' && x.body['name'] === 'accepted')?.body, { value: 1 }, 'the designer reports its verdict');
  t.equal(designer.stats.accepted, 1);

  const memory = await MemoryStore.open(conn);
  t.match((await memory.get(env.envId))!.entry, { name: env.spec.name, source: 'library', evaluated: false });
  await host.stop();

  // Sampling mode: the tiny random model writes something; the sandbox judges it.
  const host2 = new ActorHost({ conn, config, hostId: 'loop-host-2', log: () => undefined });
  const sampled = createDesignerActor({ options: { ...common, ablations: { noCorpus: true }, designer: { maxTokens: 16 } } });
  await host2.start([() => sampled], ['designer']);
  t.teardown(() => host2.stop());
  await conn.js.publish(SUBJECTS.jobDesign, encode(DesignJob, { jobId: 'job-sampled', iteration: 1, seed: 4 }), { msgID: 'design:job-sampled' });
  const verdicts = await read(conn, STREAMS.envs, (s) => s.some((x) => x.body['jobId'] === 'job-sampled'));
  const v = verdicts.find((x) => x.body['jobId'] === 'job-sampled')!;
  t.ok(v.type === 'env.rejected' || v.type === 'env.accepted', `verdict: ${v.type} ${String(v.body['stage'] ?? '')}`);
  const sample = v.body['designer'] as { tokens: Uint8Array; logprobs: Uint8Array; promptTokens: Uint8Array };
  t.ok(sample.tokens.byteLength > 0 && sample.logprobs.byteLength === sample.tokens.byteLength && sample.promptTokens.byteLength > 0, 'the designer sample is kept');
  t.equal(sampled.stats.jobs, 1);
});
