// The evaluator role as the composition root builds it (app/roles.ts, with eval's library index for copies), under
// the default shaped reward, over real NATS: a designed environment whose code is a
// library module earns 0 (copy) whatever its regret, and its memory entry (the designer's) is removed; a new module
// earns learnability + floored regret + bonus (gated on the validation oracle) and keeps its entry; a rejection at
// probes costs the stage-graded penalty; the copy and learnability metrics are published.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ROLE_FACTORIES } from '../../../app/roles.js';
import { MemoryStore, newMemoryEntry } from '../../../actors/loop/memory/index.js';
import { EnvRejected, LabeledBatch, TrajectoryGroup } from '../../../actors/loop/messages.js';
import { ActorHost } from '../../../runtime/host.js';
import { Metric } from '../../../runtime/message-types.js';
import { encode } from '../../../runtime/messages.js';
import { repoPath } from '../../../runtime/paths.js';
import { STREAMS, SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { readUntil } from '../../helpers/streams.js';
import { group } from './fixtures.js';

t.test('copies earn nothing and leave the memory; new modules earn the shaped reward', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'eval', log: () => undefined });
  await host.start([(env) => ROLE_FACTORIES.evaluator!(env)], ['evaluator']);
  t.teardown(() => host.stop());
  const memory = await MemoryStore.open(conn);
  t.teardown(() => memory.close());

  const library = readFileSync(repoPath('envs', 'library', 'games', 'nim.js'), 'utf8');
  const fresh = readFileSync(repoPath('test', 'fixtures', 'hints', 'secret-digit-v2.js'), 'utf8');
  const played = (envId: string, code: string) => {
    const g = group(envId, [1, 1, 1, 1], [1, 0, 0, 0]); // regret 0.75, no-hint solve rate 1/4
    return { ...g, env: { ...g.env, code, codeHash: `h-${envId}`, validation: { ms: 5, oracleMean: 1 } } };
  };
  for (const [envId, code] of [['env-copy', library], ['env-new', fresh]] as const) {
    const g = played(envId, code);
    await memory.add(newMemoryEntry({ envId, name: envId, description: 'd', family: 'games', codeHash: g.env.codeHash, parents: [], iteration: 3, source: 'designer' }));
    await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, g), { msgID: `group:${envId}` });
  }
  const rej = { envId: 'env-r', jobId: 'j-r', iteration: 3, code: 'x', stage: 'probes', reason: 'trivially winnable', parents: [], designer: played('x', fresh).env.designer! };
  await conn.js.publish(SUBJECTS.envRejected, encode(EnvRejected, rej), { msgID: 'rej:env-r' });

  const batches = await readUntil(conn, STREAMS.trajectories, SUBJECTS.trajLabeled, LabeledBatch, 3);
  const by = (id: string) => batches.find((b) => b.envId === id)!;
  t.equal(by('env-copy').regret, 0.75);
  t.equal(by('env-copy').designerReward, 0, 'a library copy earns nothing');
  t.ok(Math.abs(by('env-new').designerReward - (0.75 + 0.75 + 0.1)) < 1e-12, `a new module: 4·¼·¾ + 0.75 + 0.1 (${by('env-new').designerReward})`);
  t.equal(by('env-r').designerReward, -0.4375, 'rejected at probes: the graded penalty');

  t.equal(await memory.get('env-copy'), null, 'the copy\'s memory entry is removed');
  const kept = (await memory.get('env-new'))!.entry;
  t.equal(kept.evaluated, true, 'the new module\'s entry is evaluated');
  t.equal(kept.regret, 0.75);

  const metrics = await readUntil(conn, STREAMS.metrics, SUBJECTS.metrics('evaluator'), Metric, 22);
  const metric = (envId: string, name: string) => metrics.find((m) => m.tags?.envId === envId && m.name === name)?.value;
  t.equal(metric('env-copy', 'copy'), 1);
  t.equal(metric('env-new', 'copy'), 0);
  t.equal(metric('env-new', 'learnability'), 0.75);
});
