// A learner process killed with SIGKILL mid-stream (wherever it is: training, publishing, writing a checkpoint)
// is resumed by a new learner from its last checkpoint and the stream: every trajectory applied exactly once.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readAccounting } from '../../../actors/learner/index.js';
import { openWeightStores, readPolicyRecord } from '../../../weight-sync/index.js';
import { repoPath } from '../../../runtime/paths.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.test('SIGKILL after the third update, resume, exactly once', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  const all: string[] = [];
  for (let b = 0; b < 10; b++) {
    const trajs = [traj(`b${b}-a`, [50 + b, 60], 1, 0), traj(`b${b}-b`, [70, 71 + b], -1, 0)];
    all.push(...trajs.map((x) => x.trajId));
    await publishBatch(conn, `b${b}`, trajs);
  }
  const child = spawn(process.execPath, [repoPath('dist/test/actors/learner/learner-child.js'), server.url, stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, sig) => resolve(sig)));
  t.teardown(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^update 3$/m.test(out)) (child.kill('SIGKILL'), resolve());
    });
    child.once('exit', () => reject(new Error(`child exited before update 3:\n${out}`)));
  });
  t.equal(await exited, 'SIGKILL');

  // The child's lock (its TTL) is still in KV: the new host stands by until it expires, then takes over.
  const { actor, stop } = await hostedLearner(t, conn, config, learnerOptions({ checkpoints: { dir: stateDir }, batching: { eta: 1000, minibatchTrajectories: 4 }, cadence: { checkpointEvery: 2 }, host: { lockTtlMs: 1_000 } }), {}, 'b');
  const b = actor.learner() ?? (await new Promise<NonNullable<ReturnType<typeof actor.learner>>>((resolve) => actor.events.once('learner', resolve)));
  t.equal(b.stats.origin, 'resume');
  await when(b, 'update', () => b.stats.applied >= all.length);
  await stop();

  const applied = (await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  t.equal(applied.length, all.length, 'each applied once');
  t.same([...new Set(applied)].sort(), [...all].sort(), 'none lost');
  const { kv } = await openWeightStores(conn);
  t.equal((await readPolicyRecord(kv))!.record!.version, b.version, 'the resumed learner owns the newest version');
  t.ok(b.stats.published.every((v, i, a) => i === 0 || v > a[i - 1]!), `its versions increase: ${b.stats.published.join(' ')}`);
  const info = await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  t.equal(info.num_ack_pending + info.num_pending, 0, 'every message acked');
});
