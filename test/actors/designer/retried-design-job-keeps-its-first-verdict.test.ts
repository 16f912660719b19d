// A design job handed to the designer again (its first attempt died before the ack) keeps the verdict of its first
// attempt, whatever the second attempt's own sample would get: over a real nats-server, the real topology and host,
// the designer actor with a real sandbox, and a policy whose completion changes between the two attempts.
//   rejected, then a retry that would be accepted → one env.rejected, no rollout job, nothing in the memory;
//   accepted, then a retry that would be rejected → the accepted outputs again, one rollout job, in the memory;
//   accepted but died before publishing, then a retry that would be rejected → the accepted outputs are published.
import { EventEmitter, once } from 'node:events';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { createDesignerActor } from '../../../actors/designer/designer-actor.js';
import { envIdOf } from '../../../actors/designer/design.js';
import { MemoryStore } from '../../../actors/loop/memory/memory-store.js';
import { DesignJob, type AcceptedEnv, type DesignJobBody, type EnvRejectedBody, type RolloutJobBody } from '../../../actors/loop/messages.js';
import type { Actor, ActorOutput } from '../../../runtime/actor.js';
import type { Connection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { decodeAny, encode } from '../../../runtime/messages.js';
import { repoPath } from '../../../runtime/paths.js';
import { publishOutputs } from '../../../runtime/publish.js';
import { STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { doc, scriptedInTurn } from './scripted-designer.js';

const library = (family: string, name: string) => readFileSync(repoPath('envs', 'library', family, `${name}.js`), 'utf8');
const GOOD_B = library('reasoning', 'sum-to-target');
const GOOD_A = library('reasoning', 'coin-change');
const GOOD_C = library('games', 'nim');
const BAD = 'export const spec = { name: "x", description: "d", hint: "h", maxTurns: 4 };\n'; // no default export

/** How the first attempt of a job dies: after its outputs landed, or between the designer's verdict and publishing. */
type Death = 'after-publish' | 'before-publish';

/** The designer, except that each job's first attempt dies as `deaths` says; the host then hands the job out again. */
function dyingOnce(inner: ReturnType<typeof createDesignerActor>, conn: Connection, deaths: Record<string, Death>) {
  const events = new EventEmitter();
  const attempts = new Map<string, ActorOutput[][]>();
  const actor: Actor<DesignJobBody> = {
    role: inner.role,
    input: inner.input!,
    start: (env) => inner.start!(env),
    stop: () => inner.stop!(),
    async handle(job, ctx) {
      const out = await inner.handle!(job, ctx);
      attempts.set(job.jobId, [...(attempts.get(job.jobId) ?? []), out]);
      if (ctx.deliveryCount === 1) {
        if (deaths[job.jobId] === 'after-publish') await publishOutputs(conn.js, out, { retryMs: 0, signal: ctx.signal, log: () => undefined });
        throw new Error(`attempt 1 of ${job.jobId} dies ${deaths[job.jobId]} (before the ack)`);
      }
      events.emit(`retried:${job.jobId}`);
      return out;
    },
  };
  return { actor, attempts, events };
}

/** Every message stored in `stream`, decoded (read by sequence: a work queue admits no second consumer). */
async function stored(conn: Connection, stream: string): Promise<Array<{ subject: string; type: string; body: Record<string, unknown> }>> {
  const { state } = await conn.jsm.streams.info(stream);
  const out = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const m = await conn.jsm.streams.getMessage(stream, { seq });
    if (!m) continue;
    const d = decodeAny(m.data);
    out.push({ subject: m.subject, type: d.type, body: d.body as Record<string, unknown> });
  }
  return out;
}

t.test('a retried design job publishes, remembers and reports the verdict of its first attempt', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());

  // Jobs run one after another, so the policy's completions go: job A's two attempts, then B's, then C's.
  const policy = scriptedInTurn([BAD, GOOD_A, GOOD_B, BAD, GOOD_C, BAD]);
  const designer = createDesignerActor({ options: { k: 2, sandbox: { mode: 'local', workers: 1 }, designer: { maxTokens: 24, validationSeeds: 4 } }, policy, sandbox: pool, corpus: () => doc });
  const { actor, attempts, events } = dyingOnce(designer, conn, { 'job-a': 'after-publish', 'job-b': 'after-publish', 'job-c': 'before-publish' });
  const host = new ActorHost({ conn, config, hostId: 'designer-host', log: () => undefined });
  await host.start([() => actor], ['designer']);
  t.teardown(() => host.stop());

  for (const [i, jobId] of ['job-a', 'job-b', 'job-c'].entries()) {
    const retried = once(events, `retried:${jobId}`);
    await conn.js.publish(SUBJECTS.jobDesign, encode(DesignJob, { jobId, iteration: 1, seed: 10 + i }), { msgID: `design:${jobId}` });
    await retried;
  }
  await host.stop(); // drains: the second attempts' outputs are published

  const envs = await stored(conn, STREAMS.envs);
  const rollouts = await stored(conn, STREAMS.jobsRollout);
  const memory = await MemoryStore.open(conn);
  const envsOf = (jobId: string) => envs.filter((m) => m.body['envId'] === envIdOf(jobId));
  const rolloutsOf = (jobId: string) => rollouts.filter((m) => (m.body['env'] as AcceptedEnv).envId === envIdOf(jobId));
  const verdictsOf = (jobId: string) => attempts.get(jobId)!.map((out) => out.filter((o) => o.subject !== SUBJECTS.metrics('designer')));

  // A: rejected first; the retry's module would pass validation.
  const a = envsOf('job-a');
  t.same(a.map((m) => m.type), ['env.rejected'], 'A: exactly one verdict on the env stream, the first (rejected)');
  t.equal((a[0]!.body as unknown as EnvRejectedBody).code, BAD.trim());
  t.same(rolloutsOf('job-a'), [], 'A: no rollout job for the rejected environment');
  t.equal(await memory.get(envIdOf('job-a')), null, 'A: the rejected environment is not in the memory');
  t.same(verdictsOf('job-a').map((out) => out.map((o) => o.subject)), [[SUBJECTS.envRejected], [SUBJECTS.envRejected]], 'A: both attempts report the rejection');
  t.same(verdictsOf('job-a')[1], verdictsOf('job-a')[0], "A: the retry republishes the first attempt's outputs exactly");

  // B: accepted first; the retry's module would be rejected.
  const b = envsOf('job-b');
  t.same(b.map((m) => m.type), ['env.accepted'], 'B: exactly one verdict on the env stream, the first (accepted)');
  t.equal((b[0]!.body as unknown as AcceptedEnv).code, GOOD_B.trim());
  t.equal(rolloutsOf('job-b').length, 1, 'B: one rollout job');
  t.equal((rolloutsOf('job-b')[0]!.body as unknown as RolloutJobBody).env.designer!.text, GOOD_B, "B: the rollout carries the first attempt's designer sample");
  t.equal((await memory.get(envIdOf('job-b')))?.entry.code, GOOD_B.trim(), 'B: the accepted environment is in the memory');
  t.same(verdictsOf('job-b')[1], verdictsOf('job-b')[0], 'B: the retry republishes the accepted outputs exactly');

  // C: accepted, but the attempt died before publishing anything; the retry's module would be rejected.
  const c = envsOf('job-c');
  t.same(c.map((m) => m.type), ['env.accepted'], 'C: the first verdict is published by the retry');
  t.equal((c[0]!.body as unknown as AcceptedEnv).code, GOOD_C.trim());
  t.equal(rolloutsOf('job-c').length, 1, 'C: one rollout job');
  t.equal((await memory.get(envIdOf('job-c')))?.entry.code, GOOD_C.trim(), 'C: the accepted environment is in the memory');
  t.same(verdictsOf('job-c')[1], verdictsOf('job-c')[0], "C: the retry publishes the first attempt's outputs");

  t.match(designer.stats, { jobs: 6, accepted: 4, rejected: 2, replayed: 3 }, "each attempt counts the verdict that stands, not its own sample's");
  t.equal(policy.prompts.length, 6, 'each attempt sampled (the discarded samples are never published)');
  await memory.close();
});
