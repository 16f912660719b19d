// The agent on the real policy service (tiny random model) and the real sandbox: k episodes per arm on paired
// seeds, every turn's SAMPLE unpacks to tokens, log-probs and versions of equal length, only hinted prompts hold
// the hint, returns are the sums of rewards, the episodes' turns share decode steps, and an environment that
// throws ends its episodes with the typed error code instead of failing the job.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { playGroup, type AgentDeps } from '../../../actors/agent/play.js';
import { PolicyService } from '../../../actors/loop/policy/policy-service.js';
import type { AcceptedEnv } from '../../../actors/loop/messages.js';
import { unpackFloats, unpackInts } from '../../../actors/loop/packed.js';
import { repoPath } from '../../../runtime/paths.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { TINY_POLICY, tinyLoop } from '../loop/policy/tiny-loop.js';

const FAULTY = `export const spec = { name: "faulty", description: "Say anything twice.", hint: "Anything works.", maxTurns: 5 };
export default class Env {
  reset(seed) { this.t = 0; return { observation: "Go." }; }
  step(action) { this.t++; if (this.t >= 2) throw new Error("boom"); return { observation: "Again.", reward: 0, terminated: false, truncated: false, info: {} }; }
}
`;

async function accepted(pool: SandboxPool, envId: string, code: string): Promise<AcceptedEnv> {
  const r = await pool.reset({ code, seed: 0 });
  const { name, description, hint, maxTurns } = r.spec;
  return { envId, jobId: envId, iteration: 0, code, codeHash: r.codeHash, spec: { name, description, hint, maxTurns }, family: 'reasoning', parents: [], validation: { ms: 0 } };
}

t.test('k per arm, recorded samples, env faults', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  const policy = await PolicyService.open({ policy: TINY_POLICY });
  t.teardown(async () => (await policy.close(), await pool.close()));
  const deps: AgentDeps = { policy, sandbox: pool, options: tinyLoop({ agent: { maxTokens: 6, maxTurns: 6 } }) };
  const env = await accepted(pool, 'env-sum', readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8'));

  const steps0 = policy.sampler.steps;
  const { output, episodes } = await playGroup({ env, k: 2, seedBase: 100 }, deps);
  const steps = policy.sampler.steps - steps0;
  t.match(output, { subject: SUBJECTS.trajRaw, msgId: 'traj:group-env-sum', body: { groupId: 'group-env-sum' } });
  t.same(episodes.map((e) => [e.hinted, e.seed]), [[false, 100], [false, 101], [true, 100], [true, 101]], 'paired seeds per arm');
  t.equal(new Set(episodes.map((e) => e.trajId)).size, 4, 'distinct trajectory ids');
  let tokens = 0;
  for (const e of episodes) {
    t.equal(e.error, undefined);
    t.ok(e.turns.length >= 1 && e.turns.length <= 6, `${e.trajId}: ${e.turns.length} turns`);
    t.equal(e.rewards.length, e.turns.length, 'one reward per turn');
    t.ok(Math.abs(e.return - e.rewards.reduce((a, b) => a + b, 0)) < 1e-9 && e.return >= 0 && e.return <= 1, 'return = sum of rewards, in [0, 1]');
    for (const s of e.turns) {
      const n = unpackInts(s.tokens).length;
      tokens += n;
      t.ok(n >= 1 && unpackFloats(s.logprobs).length === n && unpackInts(s.versions).length === n, 'tokens, log-probs and versions align');
      t.same([...new Set(unpackInts(s.versions))], [0]);
      const prompt = policy.format.decode(unpackInts(s.promptTokens));
      t.equal(prompt.includes(env.spec.hint), e.hinted, 'the hint is in the prompt exactly when hinted');
    }
    if (e.turns.length > 1) t.ok(policy.format.decode(unpackInts(e.turns[1]!.promptTokens)).includes(e.turns[0]!.text), 'the history holds the earlier action');
  }
  t.ok(steps < tokens, `four episodes took ${steps} decode steps for ${tokens} tokens: their turns batched`);

  const bad = await accepted(pool, 'env-faulty', FAULTY);
  const faulty = await playGroup({ env: bad, k: 1, seedBase: 0 }, deps);
  t.same(faulty.episodes.map((e) => e.error), ['ENV_THREW', 'ENV_THREW'], 'the fault ends each episode with its code');
  t.same(faulty.episodes.map((e) => e.turns.length), [2, 2], 'the turn that faulted is recorded');
  t.same(faulty.episodes.map((e) => e.rewards.length), [1, 1]);
});
