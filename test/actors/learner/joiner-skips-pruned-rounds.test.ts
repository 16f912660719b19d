// A learner host joining a group whose first rounds were pruned from the rounds bucket (GroupReduce.prune) starts from
// the group's state: it logs the ids of the kept rounds it missed, skips the pruned ones (their trajectories are final
// everywhere; their ids are gone on purpose) instead of failing on a missing record, and trains in step with the
// group. Real nats-server, two learner hosts in this process.
import t from 'tap';
import { readAccounting, type UpdateReport } from '../../../actors/learner/index.js';
import { BUCKETS, LEARNER_ROUNDS_PRUNED_KEY } from '../../../runtime/subjects.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.setTimeout(180_000);

t.test('a joiner skips the pruned rounds and keeps the rest', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const opts = { batching: { eta: 1000, minibatchTrajectories: 4 }, cadence: { checkpointEvery: 1 }, group: { enabled: true, roundTimeoutMs: 10_000, keepRounds: 2, keepRoundsMs: 0 } };
  const hashes = new Map<string, Map<number, string>>();
  const logs: string[] = [];
  const host = async (id: string) => {
    const stateDir = tempDir(t, `spade-${id}-`);
    const h = await hostedLearner(t, await connected(t, config), config, learnerOptions({ checkpoints: { dir: stateDir }, ...opts }), { log: (l) => logs.push(`${id}: ${l}`) }, id);
    const mine = new Map<number, string>();
    hashes.set(id, mine);
    h.actor.events.on('update', (r: UpdateReport & { group?: { hash: string } }) => void mine.set(r.update, r.group!.hash));
    return { ...h, stateDir };
  };
  let n = 0;
  const publish = async (batches: number): Promise<void> => {
    for (const end = n + batches; n < end; n++) await publishBatch(conn, `b${n}`, [traj(`b${n}-p`, [50 + n, 60], 1, 0), traj(`b${n}-q`, [70, 71 + n], -1, 0)]);
  };

  // learner-a trains alone for 6 rounds; the rounds bucket keeps the last 2 behind the newest.
  const a = await host('learner-a');
  await publish(12);
  await when(a.actor.events, 'update', () => hashes.get('learner-a')!.has(6));
  const rounds = await conn.kvm.open(BUCKETS.learnerRounds);
  const pruned = (JSON.parse(new TextDecoder().decode((await rounds.get(LEARNER_ROUNDS_PRUNED_KEY))!.value)) as { round: number }).round;
  t.ok(pruned >= 3, `rounds 1..${pruned} pruned`);

  // learner-b joins with no checkpoint of its own.
  const b = await host('learner-b');
  t.equal(b.learner().stats.origin, 'group', 'the joiner starts from the group state');
  const joinedAt = b.learner().stats.updates;
  t.ok(logs.some((l) => l.startsWith('learner-b') && /rounds 1\.\.\d+ were pruned/.test(l)), 'and says which rounds were pruned');
  const logged = (await readAccounting(b.stateDir)).flatMap((l) => (l.kind === 'update' ? [l.update] : []));
  t.same(logged, Array.from({ length: joinedAt - pruned }, (_, i) => pruned + 1 + i), `its log holds the kept rounds it missed (${pruned + 1}..${joinedAt})`);

  await publish(6);
  // Reported rounds (a learner counts an update before it has published and reported it).
  await when(b.actor.events, 'update', () => hashes.get('learner-b')!.has(joinedAt + 2));
  await when(a.actor.events, 'update', () => hashes.get('learner-a')!.has(joinedAt + 2));
  const shared = [...hashes.get('learner-b')!.keys()].filter((r) => hashes.get('learner-a')!.has(r));
  t.ok(shared.length >= 2, `${shared.length} rounds run by both`);
  for (const r of shared) t.equal(hashes.get('learner-b')!.get(r), hashes.get('learner-a')!.get(r), `round ${r}: the same weights hash`);
  await Promise.all([a.stop(), b.stop()]);
});
