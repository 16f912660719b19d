// A design job that carries a replay (loop.replay) plays an accepted environment again: the designer samples
// nothing, publishes the environment as accepted under the job's own envId with replayOf and the replayed envId as
// its parent, and a rollout job for it at the loop's k; it writes no memory entry (the memory keeps the replayed
// one). The outputs' msgIds are the job's, so a replay never collides with the design it replays. Real sandbox.
import t from 'tap';
import type { DesignerDeps } from '../../../actors/designer/design.js';
import { design, loadLibraryEnvs } from '../../../actors/designer/index.js';
import type { AcceptedEnv, RolloutJobBody } from '../../../actors/loop/messages.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { scripted, memory, doc } from './scripted-designer.js';

const door = loadLibraryEnvs().find((e) => e.name === 'door-code')!;
const child = door.code.replace("name: 'door-code'", "name: 'harbour-code'").replace('const CODES = 4;', 'const CODES = 5;');

t.test('a replay job republishes the accepted environment without a designer sample', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const mem = memory([]);
  const policy = scripted('');
  const deps = { policy, sandbox: pool, options: tinyLoop({ k: 3 }), corpus: () => doc, memory: mem, outcomes: null, parents: [] } as DesignerDeps & { policy: ReturnType<typeof scripted> };
  const r = await design({ jobId: 'run-it5-d2', iteration: 5, seed: 77, replay: { envId: 'env-run-it1-d0', family: 'reasoning', code: child } }, deps);
  t.equal(policy.prompts.length, 0, 'nothing sampled');
  t.equal(r.sample, undefined);
  const env = r.outputs[0]!.body as AcceptedEnv;
  t.same([env.envId, env.iteration, env.replayOf, env.parents, env.family, env.spec.name], ['env-run-it5-d2', 5, 'env-run-it1-d0', ['env-run-it1-d0'], 'reasoning', 'harbour-code']);
  t.equal(env.code, child);
  t.equal(env.designer, undefined, 'no designer sample: nothing for the designer to train on');
  const rollout = r.outputs[1]!.body as RolloutJobBody;
  t.same([rollout.k, rollout.seedBase], [3, 77], "the loop's k, on the job's own seeds");
  t.same(r.outputs.map((o) => o.msgId), ['env:env-run-it5-d2', 'rollout:env-run-it5-d2'], "the job's own msgIds");
  t.same(mem.added, [], 'no memory entry of its own');
});
