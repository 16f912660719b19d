// The whole loop on two host processes over one real nats-server, with real sandboxes and a tiny model:
// every accepted environment gets its 2k episodes, every trajectory is applied by the learner exactly once,
// the stored regret equals the difference of the stored returns, and the policy version advances and
// reaches the samplers.
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EnvAccepted, LabeledBatch, TrajectoryGroup } from '../../actors/loop/messages.js';
import { unpackInts } from '../../actors/loop/packed.js';
import { readAccounting } from '../../actors/learner/accounting.js';
import { MemoryStore } from '../../actors/loop/memory/memory-store.js';
import { PolicyVersion } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { BUCKETS, POLICY_KEYS, STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, tempDir, testConfig } from '../helpers/nats.js';
import { readAll } from '../helpers/streams.js';
import { repoPath } from '../../runtime/paths.js';

const K = 2;
const ITERATIONS = 3;
const DESIGNS = 2;

const LOOP = [
  'loop.ablations.fixedEnvs=true', // a tiny random model writes no valid environment; a library stands in
  // with an environment whose returns vary even for a random policy, so the regret arithmetic is exercised
  `loop.library=${JSON.stringify(repoPath('test/fixtures/loop-library'))}`,
  'loop.policy.checkpoint=null',
  'loop.policy.init={"layers":1,"width":32,"heads":2,"contextLength":256,"seed":1}',
  `loop.k=${K}`,
  'loop.agent.maxTurns=4',
  'loop.agent.maxTokens=6',
  'loop.agent.maxPromptTokens=200',
  `run.designsPerIteration=${DESIGNS}`,
  'run.maxStaleness=1',
  'delivery.ackWaitMs=10000',
  'host.heartbeatMs=500',
  'host.memberTtlMs=3000',
  'roles.sandbox.threads=1',
];

t.test('a short self-play run on two processes', { timeout: 400_000 }, async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const runDir = tempDir(t, 'spade-loop-');
  const set = LOOP.flatMap((s) => ['--set', s]);
  const main = spawnHost(t, ['--nats', server.url, '--run-dir', runDir, '--iterations', String(ITERATIONS), '--host-id', 'main', '--role', 'coordinator,learner,designer,agent,evaluator,sandbox', '--set', 'run.view="off"', ...set]);
  const helper = spawnHost(t, ['--nats', server.url, '--host-id', 'helper', '--role', 'designer,agent,evaluator,sandbox', ...set]);
  await helper.waitFor(/running roles/, 120_000);
  const exit = await main.exited;
  t.equal(exit.code, 0, `the run host stops by itself after ${ITERATIONS} iterations`);
  t.match(main.output(), /iterations done: stopping/);
  helper.child.kill('SIGTERM');
  t.equal((await helper.exited).code, 0, 'the second host drains and exits 0');
  const handled = (h: typeof main) => Number(/handled=(\d+)/.exec(h.output())?.[1] ?? 0);
  t.ok(handled(helper) > 0, `the second process did part of the work (handled ${handled(helper)} tasks)`);

  const accepted = await readAll(conn, STREAMS.envs, SUBJECTS.envAccepted, EnvAccepted);
  const groups = await readAll(conn, STREAMS.trajectories, SUBJECTS.trajRaw, TrajectoryGroup);
  const labeled = await readAll(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch);
  t.equal(accepted.length, ITERATIONS * DESIGNS, 'every design job produced an accepted environment (fixed-environment mode)');

  // Every accepted environment got its 2k episodes: k with the hint, k without.
  for (const env of accepted) {
    const g = groups.filter((x) => x.env.envId === env.envId);
    t.equal(g.length, 1, `${env.envId}: one trajectory group`);
    t.equal(g[0]!.episodes.filter((e) => e.hinted).length, K, `${env.envId}: ${K} hinted episodes`);
    t.equal(g[0]!.episodes.filter((e) => !e.hinted).length, K, `${env.envId}: ${K} episodes without the hint`);
  }

  // The stored regret equals the difference recomputed from the stored returns, in the batch and in memory.
  const returns = groups.flatMap((g) => g.episodes.map((e) => e.return));
  t.ok(returns.some((r) => r > 0) && returns.some((r) => r < 1), `returns vary (${returns.join(' ')})`);
  const memory = await MemoryStore.open(conn);
  await memory.sync();
  t.teardown(() => memory.close());
  for (const b of labeled) {
    const g = groups.find((x) => x.env.envId === b.envId)!;
    const mean = (hinted: boolean) => {
      const r = g.episodes.filter((e) => e.hinted === hinted).map((e) => e.return);
      return r.reduce((a, x) => a + x, 0) / r.length;
    };
    t.ok(Math.abs(b.regret! - (mean(true) - mean(false))) < 1e-9, `${b.envId}: regret ${b.regret} = ${mean(true)} − ${mean(false)}`);
    const entry = memory.entries().find((e) => e.envId === b.envId);
    t.ok(entry && Math.abs(entry.regret - b.regret!) < 1e-9, `${b.envId}: the memory entry holds the same regret`);
  }

  // Every labeled trajectory was applied by the learner exactly once (or dropped as stale, and counted).
  const stateDir = join(runDir, 'learner');
  t.ok(existsSync(stateDir), 'the learner kept its state under the run directory');
  const lines = await readAccounting(stateDir);
  const applied = lines.flatMap((l) => (l.kind === 'update' ? l.applied : []));
  const dropped = lines.flatMap((l) => (l.kind === 'drop' ? l.dropped : []));
  const ids = labeled.flatMap((b) => b.trajectories.map((x) => x.trajId));
  t.equal(new Set(applied).size, applied.length, 'no trajectory applied twice');
  t.same([...applied, ...dropped].sort(), [...ids].sort(), `all ${ids.length} labeled trajectories accounted for (${applied.length} applied, ${dropped.length} dropped)`);

  // The policy version advanced, and samplers of later iterations sampled with the new weights.
  const kv = await conn.kvm.open(BUCKETS.policy);
  const pv = await kv.get(POLICY_KEYS.version);
  const version = decode(PolicyVersion, pv!.value).version;
  t.ok(version >= ITERATIONS - 1, `policy version advanced to ${version}`);
  const newest = Math.max(...groups.flatMap((g) => g.episodes.flatMap((e) => e.turns.flatMap((s) => [...unpackInts(s.versions)]))));
  t.ok(newest >= 1, `agents sampled with published weights (newest version seen in trajectories: ${newest})`);
  for (const g of groups) {
    const minVersion = Math.min(...g.episodes.flatMap((e) => e.turns.flatMap((s) => [...unpackInts(s.versions)])));
    t.ok(minVersion >= Math.max(0, g.env.iteration - 1), `iteration ${g.env.iteration} sampled with version ${minVersion} (η = 1)`);
  }
});
