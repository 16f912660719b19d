// Two attempts of one design job running at once (a redelivery while the first is still at work), one whose module is
// accepted and one whose module is rejected: one claim wins over a real KV bucket, and both publish its outputs.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { design, envIdOf, type DesignerDeps } from '../../../actors/designer/design.js';
import { OutcomeStore } from '../../../actors/designer/outcome-store.js';
import { repoPath } from '../../../runtime/paths.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { doc, memory, scripted } from './scripted-designer.js';

const GOOD = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');
const BAD = 'export const spec = { name: "x", description: "d", hint: "h", maxTurns: 4 };\n';

t.test('racing attempts share one outcome', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const outcomes = await OutcomeStore.open(conn);
  const options = tinyLoop({ k: 2 });
  const good = memory([]), bad = memory([]);
  const deps = (text: string, mem: ReturnType<typeof memory>): DesignerDeps => ({ policy: scripted(text), sandbox: pool, options, corpus: () => doc, memory: mem, outcomes });

  // Two attempts of one job at once, one accepted and one rejected: one claim wins and both report it.
  const [x, y] = await Promise.all([design({ jobId: 'job-race', iteration: 1, seed: 1 }, deps(GOOD, good)), design({ jobId: 'job-race', iteration: 1, seed: 1 }, deps(BAD, bad))]);
  t.same([x.replayed, y.replayed].sort(), [false, true], 'exactly one attempt claimed the outcome');
  t.same(y.outputs, x.outputs, 'both publish the same outputs');
  const stored = (await outcomes.get(envIdOf('job-race')))!;
  t.equal(stored.rollout?.env.envId ?? null, x.accepted?.envId ?? null, 'the stored verdict is the one they publish');

  t.equal(good.added.length + bad.added.length, x.accepted ? 2 : 0, 'each attempt remembers the environment only when the verdict that stands accepts it (the store keeps the first add)');
});
