// Two learner hosts in a learner group (loop.learner.group.enabled), each connected as the `learner` NATS user of a server
// that requires per-role credentials (as `spade start` runs by default): they complete rounds with agreeing weights,
// apply every trajectory once, publish and prune the group's state (reduce stream, heartbeats, round keys and their
// purge, optimizer-state objects), and the server refuses none of it; another role may write none of the group's.
// How many rounds the 32 trajectories take is the hosts' timing: 5 when learner-b holds nothing or half a minibatch as
// round 1 begins (the usual case, loaded or not), 4 when it holds a full one by then (learner-a's first
// contribution 3 s late does it every time). This test used to wait for 5 rounds, so a run of 4 waited for an update
// that never came, up to the file's 180 s timeout (as in a loaded full-suite run): it waits for the data instead.
import t from 'tap';
import { readAccounting, type UpdateReport } from '../../../actors/learner/index.js';
import type { PermissionError } from '../../../runtime/errors.js';
import { ADMIN } from '../../../runtime/permissions.js';
import { BUCKETS, LEARNER_ROUNDS_PRUNED_KEY, NATS_SUBJECTS, SUBJECTS, learnerRoundKey } from '../../../runtime/subjects.js';
import { ensureTopology } from '../../../runtime/topology.js';
import { authServer, connectAs, refusal } from '../../helpers/auth.js';
import { tempDir } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.setTimeout(180_000);

t.test('a learner group under per-role users: rounds agree, nothing refused', async (t) => {
  const { config } = await authServer(t);
  const refused: PermissionError[] = [];
  await ensureTopology(await connectAs(t, config, 'coordinator', refused), config);
  const evaluator = await connectAs(t, config, 'evaluator', refused);
  // Prune at once (keep 2 rounds): the purge of the rounds bucket runs under the learner's user too.
  const opts = { batching: { eta: 1000, minibatchTrajectories: 4 }, cadence: { checkpointEvery: 1 }, group: { enabled: true, roundTimeoutMs: 10_000, keepRounds: 2, keepRoundsMs: 0 } };
  const hashes = new Map<string, Map<number, string>>();
  const logs: string[] = [];
  let finished = false;
  t.teardown(() => void (finished || process.stderr.write(`the hosts' logs:\n${logs.join('\n')}\n`))); // a timeout says where they were
  const host = async (id: string) => {
    const stateDir = tempDir(t, `spade-${id}-`);
    const h = await hostedLearner(t, await connectAs(t, config, 'learner', refused), config, learnerOptions({ checkpoints: { dir: stateDir }, ...opts }), { log: (l) => logs.push(`${id}: ${l}`) }, id);
    const mine = new Map<number, string>();
    hashes.set(id, mine);
    h.actor.events.on('update', (r: UpdateReport & { group?: { hash: string } }) => void mine.set(r.update, r.group!.hash));
    return { ...h, stateDir };
  };
  const a = await host('learner-a');
  const b = await host('learner-b');

  const all: string[] = [];
  for (let i = 0; i < 16; i++) {
    const trajs = [traj(`b${i}-p`, [50 + i, 60], 1, 0), traj(`b${i}-q`, [70, 71 + i], -1, 0)];
    all.push(...trajs.map((x) => x.trajId));
    await publishBatch(evaluator, `b${i}`, trajs);
  }
  const appliedBy = async (dir: string): Promise<string[]> => (await readAccounting(dir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  const ha = hashes.get('learner-a')!, hb = hashes.get('learner-b')!;
  // Waits on the actors' events, not one learner's: a member restarted under load is another Learner. Each member
  // brings at most a minibatch (4) to a round, so the 32 trajectories take at least 4 rounds, however they fall.
  await when(a.actor.events, 'update', async () => (await appliedBy(a.stateDir)).length >= all.length);
  const rounds = Math.max(...ha.keys());
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([when(b.actor.events, 'update', () => hb.has(rounds)), new Promise((r) => (timer = setTimeout(r, 10_000)))]); // b reports the same round
  clearTimeout(timer);
  await Promise.all([a.stop(), b.stop()]);

  const shared = [...ha.keys()].filter((r) => hb.has(r));
  t.ok(shared.length >= 4, `${shared.length} rounds run by both hosts`);
  for (const r of shared) t.equal(hb.get(r), ha.get(r), `round ${r}: the same weights hash on both`);
  const applied = await appliedBy(a.stateDir);
  t.equal(applied.length, new Set(applied).size, 'no trajectory applied twice');
  t.same([...new Set(applied)].sort(), [...all].sort(), 'none lost');

  // The group's old round keys were purged by the learner's user (2 rounds kept).
  const admin = await connectAs(t, config, ADMIN);
  const roundsKv = await admin.kvm.open(BUCKETS.learnerRounds);
  const pruned = JSON.parse(new TextDecoder().decode((await roundsKv.get(LEARNER_ROUNDS_PRUNED_KEY))!.value)) as { round: number };
  t.ok(pruned.round >= rounds - 3, `rounds up to ${pruned.round} of ${rounds} pruned`);
  t.equal(await roundsKv.get(learnerRoundKey(1, 'meta')), null, "round 1's keys are gone");

  t.same(refused.map((e) => e.message), [], 'the server refused nothing');
  if (shared.length < 4 || refused.length > 0) t.comment(logs.join('\n'));
  finished = true;

  // Another role writes none of the group's state.
  const agent = await connectAs(t, config, 'agent');
  const enc = (s: string) => new TextEncoder().encode(s);
  t.match(await refusal('agent', () => agent.js.publish(SUBJECTS.learnerReduce, enc('gradient'))), { role: 'agent', subject: SUBJECTS.learnerReduce }, 'agent → a round contribution');
  t.match(await refusal('agent', async () => (await agent.kvm.open(BUCKETS.learnerRounds)).put(learnerRoundKey(99, 'meta'), enc('{}'))), { role: 'agent', subject: NATS_SUBJECTS.kvKey(BUCKETS.learnerRounds, learnerRoundKey(99, 'meta')) }, 'agent → a round commit');
  t.match(await refusal('agent', async () => (await agent.kvm.open(BUCKETS.learners)).put('learner-x', enc('{}'))), { role: 'agent', subject: NATS_SUBJECTS.kvKey(BUCKETS.learners, 'learner-x') }, 'agent → a group heartbeat');
  t.match(await refusal('agent', () => agent.jsm.streams.purge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds), { seq: 2 })), { role: 'agent', subject: NATS_SUBJECTS.streamPurge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds)) }, 'agent → purging the rounds');
});
