// Stepping an episode that has terminated or been truncated is an EnvContract error.
import t from 'tap';
import { SandboxPool, isEnvContract } from '../../sandbox/index.js';
import { VALID_CODE } from './helpers.js';

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
t.teardown(() => pool.close());

t.test('stepping after the episode ended is a contract error', async (t) => {
  const r0 = await pool.reset({ code: VALID_CODE, seed: 6 });
  const total = Number(/Target (\d+)/.exec(r0.observation)![1]);
  const actions: string[] = [];
  for (let left = total; left > 0; left -= 9) actions.push(String(Math.min(9, left)));
  const done = await pool.step({ codeHash: r0.codeHash, seed: 6, actions });
  t.ok(done.terminated || done.truncated);
  await t.rejects(pool.step({ codeHash: r0.codeHash, seed: 6, actions: [...actions, '1'] }), { name: 'EnvContract' });
  await pool.step({ codeHash: r0.codeHash, seed: 6, actions: [...actions, '1'] }).catch((e: unknown) => t.ok(isEnvContract(e)));
});
