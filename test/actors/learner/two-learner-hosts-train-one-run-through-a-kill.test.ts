// Two learner hosts in a learner group (loop.learner.group.enabled) train one run: host b, a separate process, is
// SIGKILLed after its second round and restarted; a goes on alone meanwhile, the restarted b starts from the group's
// published state, both end each shared round with the same weight hash, and every trajectory is applied exactly
// once across the group (b's unacked ones come back and are applied or recognised), with every message acked.
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { readAccounting, type UpdateReport } from '../../../actors/learner/index.js';
import { repoPath } from '../../../runtime/paths.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.setTimeout(180_000);

/** Starts b; resolves with its process once it printed `started`; `lines` collects its "update <n> <hash>" lines. */
function startB(t: Test, url: string, stateDir: string, lines: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [repoPath('dist/test/actors/learner/learner-child.js'), url, stateDir, 'group'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const parts = out.split('\n');
      out = parts.pop()!;
      for (const l of parts) (l === 'started' ? resolve(child) : lines.push(l));
    });
    child.once('exit', (code, sig) => reject(new Error(`b exited (${code ?? sig}) before it started`)));
  });
}

t.test('two learner hosts, one killed and restarted: same weights, exactly once', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const opts = { batching: { eta: 1000, minibatchTrajectories: 4 }, cadence: { checkpointEvery: 2 }, group: { enabled: true, roundTimeoutMs: 1_500 } };
  const stateA = tempDir(t, 'spade-learner-a-'), stateB = tempDir(t, 'spade-learner-b-');
  const { actor, stop } = await hostedLearner(t, conn, config, learnerOptions({ checkpoints: { dir: stateA }, ...opts }), {}, 'learner-a');
  const a = actor.learner()!;
  const hashA = new Map<number, string>();
  actor.events.on('update', (r: UpdateReport & { group?: { hash: string } }) => void hashA.set(r.update, r.group!.hash));
  const bLines: string[] = [];
  let b = await startB(t, server.url, stateB, bLines);

  const all: string[] = [];
  const publish = async (from: number, to: number): Promise<void> => {
    for (let i = from; i < to; i++) {
      const trajs = [traj(`b${i}-p`, [50 + i, 60], 1, 0), traj(`b${i}-q`, [70, 71 + i], -1, 0)];
      all.push(...trajs.map((x) => x.trajId));
      await publishBatch(conn, `b${i}`, trajs);
    }
  };
  await publish(0, 8);
  await new Promise<void>((resolve) => {
    const check = (): void => void (bLines.filter((l) => l.startsWith('update ')).length >= 2 ? resolve() : setTimeout(check, 20));
    check();
  });
  b.kill('SIGKILL');
  await new Promise((resolve) => b.once('exit', resolve));
  const killedAt = bLines.length;
  await publish(8, 12);
  await when(a, 'update', () => a.stats.updates >= Number(bLines.at(-1)!.split(' ')[1]) + 1);
  t.pass(`a went on alone after b was killed at update ${bLines.at(-1)!.split(' ')[1]}`);

  b = await startB(t, server.url, stateB, bLines);
  // A restarted member that lands one round behind (a round ran while it loaded) is dropped and restarts again from
  // the newer state: keep the data coming, two batches at a time, until it has taken part in a round.
  for (let i = 12; bLines.length <= killedAt && i < 40; i += 2) {
    await publish(i, i + 2);
    await new Promise((resolve) => (a.once('update', resolve), setTimeout(resolve, 3_000))); // the next round, or 3 s
  }
  // Every trajectory applied somewhere in the group, and b's restarted rounds under way.
  const appliedBy = async (dir: string): Promise<string[]> => (await readAccounting(dir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  await when(a, 'update', async () => (await appliedBy(stateA)).length >= all.length && bLines.length > killedAt);
  const bExited = new Promise((resolve) => b.once('exit', resolve));
  b.kill('SIGTERM');
  await Promise.all([stop(), bExited]);

  const applied = await appliedBy(stateA);
  t.equal(applied.length, new Set(applied).size, 'no trajectory applied twice (a lists every round of the group)');
  t.same([...new Set(applied)].sort(), [...all].sort(), 'none lost');
  const ofB = await appliedBy(stateB);
  t.equal(ofB.length, new Set(ofB).size, "b's log lists no trajectory twice");
  t.same([...ofB].sort(), [...applied].sort(), "b's log lists the same trajectories as a's, those of the rounds it missed included");
  const shared = bLines.filter((l) => l.startsWith('update ')).map((l) => l.split(' ')).filter(([, n]) => hashA.has(Number(n)));
  t.ok(shared.length >= 3, `${shared.length} rounds seen by both hosts`);
  for (const [, n, h] of shared) t.equal(h, hashA.get(Number(n)), `round ${n}: b's weights hash is a's`);
  const restarted = bLines.slice(killedAt).filter((l) => l.startsWith('update '));
  t.ok(restarted.length >= 1 && Number(restarted[0]!.split(' ')[1]) > 2, `the restarted b joined at round ${restarted[0]?.split(' ')[1]} (from the group's state)`);
  const info = await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  t.equal(info.num_ack_pending + info.num_pending, 0, 'every message acked');
});
