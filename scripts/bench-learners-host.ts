// A learner host of `npm run bench:learners`, run as its own process so the benchmark can SIGKILL it: the learner
// role under an actor host on the given server, printing one JSON line per update (its round's members, weight
// hash, trajectories, compute and exchange time, bytes pushed), `started` once it pulls, and a `status` line every
// second (its learner's phase and round, and what its group exchange waits for) that the benchmark reports when a
// wait times out. SIGTERM drains it. BENCH_LEARNERS_OWN_THREAD=1 puts its trainer on its own thread (default: the main
// thread, as the recorded figures were taken).
import { createLearnerActor, type UpdateReport, type GroupRoundStats } from '../actors/learner/index.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';
import { ActorHost } from '../runtime/host.js';

const [url, stateDir, hostId, mode, threads] = process.argv.slice(2);
if (url === undefined || stateDir === undefined || hostId === undefined) {
  process.stderr.write('usage: bench-learners-host.js <nats url> <state dir> <host id> [group|single] [threads]\n');
  process.exit(2);
}
const group = mode === 'group';
const config = await loadConfig({
  env: {}, set: [`nats.servers=${url}`, 'delivery.ackWaitMs=3000', 'delivery.maxDeliver=20', 'host.heartbeatMs=300', 'host.memberTtlMs=10000', 'host.drainTimeoutMs=60000'],
});
const conn = await openConnection(config.nats, `bench-${hostId}`);
const actor = createLearnerActor({
  model: { layers: 4, width: 256, heads: 8, kvHeads: 4, contextLength: 256, vocab: 2048 }, init: { tokenizer: 'bpe-2048' }, checkpoints: { dir: stateDir },
  batching: { eta: 1000, iterationBatches: 0, minibatchTrajectories: 16, flushAfterMs: 500 }, cadence: { checkpointEvery: 4 },
  host: { pullBatch: 4, threads: Number(threads ?? 1), lockTtlMs: 2_000, ownThread: process.env.BENCH_LEARNERS_OWN_THREAD === '1' },
  // The default round timeout (30 s): on a busy machine a live member's share can take longer than 5 s (the value this
  // used), and a member dropped from round after round for lateness used up its restarts and stopped its host, which
  // left the benchmark waiting for its rounds. A killed member is dropped sooner anyway, once its beats stop (memberTtlMs).
  ...(group ? { group: { enabled: true } } : {}),
});
actor.events.on('update', (r: UpdateReport & { group?: GroupRoundStats }) => {
  const g = r.group;
  process.stdout.write(JSON.stringify({
    update: r.update, version: r.version, trajectories: r.trajectories, ts: Date.now(), computeMs: g?.computeMs ?? r.computeMs,
    ...(g ? { members: g.members, hash: g.hash, commMs: g.commMs, bytesSent: g.bytesSent, ids: g.ids.length } : {}),
  }) + '\n');
});
const host = new ActorHost({ conn, config, hostId, log: (l) => process.stderr.write(`[${hostId}] ${l}\n`) });
await host.start([() => actor], ['learner']);
process.stdout.on('error', () => process.exit(1)); // the benchmark is gone: so is this host
process.stdout.write('started\n');
setInterval(() => {
  const l = actor.learner();
  process.stdout.write(JSON.stringify({
    status: {
      host: hostId, ts: Date.now(), learner: l === null ? 'none (starting or restarting)' : l.phase, updates: l?.stats.updates ?? null, buffered: l?.buffered ?? null,
      ...l?.peers,
    },
  }) + '\n');
}, 1_000).unref();
process.once('SIGTERM', () => void host.stop().finally(() => process.exit(0)));
