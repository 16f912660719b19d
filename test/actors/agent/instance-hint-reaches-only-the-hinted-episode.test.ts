// A contract-v2 module's per-instance hint (what reset() returned for that seed) is in the prompt of the hinted
// episode of that seed and nowhere else: not in the unhinted episode of the same seed, not in another seed's, and
// the spec.hint fallback is not shown instead. Real policy service (tiny random model), real sandbox.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { playGroup } from '../../../actors/agent/play.js';
import { PolicyService } from '../../../actors/loop/policy/policy-service.js';
import type { AcceptedEnv } from '../../../actors/loop/messages.js';
import { unpackInts } from '../../../actors/loop/packed.js';
import { repoPath } from '../../../runtime/paths.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { TINY_POLICY, tinyLoop } from '../loop/policy/tiny-loop.js';

const CODE = readFileSync(repoPath('test', 'fixtures', 'hints', 'secret-digit-v2.js'), 'utf8');

t.test('the instance hint reaches the hinted episode only', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  const policy = await PolicyService.open({ policy: TINY_POLICY });
  t.teardown(async () => (await policy.close(), await pool.close()));
  const r0 = await pool.reset({ code: CODE, seed: 0 });
  const { name, description, hint, maxTurns } = r0.spec;
  const env: AcceptedEnv = {
    envId: 'env-v2', jobId: 'env-v2', iteration: 0, code: CODE, codeHash: r0.codeHash, spec: { name, description, hint, maxTurns },
    family: 'reasoning', parents: [], validation: { ms: 0 },
  };
  const seedBase = 40;
  const k = 3;
  const expected = new Map<number, string>();
  for (let i = 0; i < k; i++) expected.set(seedBase + i, (await pool.reset({ code: CODE, seed: seedBase + i })).hint);
  t.equal(new Set(expected.values()).size, k, 'the three seeds have three different hints');

  const { episodes } = await playGroup({ env, k, seedBase }, { policy, sandbox: pool, options: tinyLoop({ agent: { maxTokens: 4 } }) });
  t.equal(episodes.length, 2 * k);
  for (const e of episodes) {
    t.equal(e.turns.length, 1, `${e.trajId}: one turn`);
    const prompt = policy.format.decode(unpackInts(e.turns[0]!.promptTokens));
    t.notOk(prompt.includes(env.spec.hint), `${e.trajId}: the spec.hint fallback is not shown`);
    for (const [seed, h] of expected) {
      t.equal(prompt.includes(h), e.hinted && seed === e.seed, `${e.trajId}: seed ${seed}'s hint shown exactly when hinted and the same seed`);
    }
    t.equal(prompt.includes('secret code'), e.hinted, `${e.trajId}: no instance hint in an unhinted prompt`);
  }
});
