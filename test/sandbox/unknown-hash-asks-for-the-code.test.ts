// A step with a code hash the pool never saw asks for the code (SandboxCodeMissing); a non-integer seed or a hash
// that does not match its code is a SandboxRequestError.
import t from 'tap';
import { SandboxPool, isSandboxCodeMissing, isSandboxError, isEnvTimeout } from '../../sandbox/index.js';
import { VALID_CODE } from './helpers.js';

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
t.teardown(() => pool.close());

t.test('an unknown hash asks for the code; bad requests are typed errors', async (t) => {
  const missing = await pool.step({ codeHash: 'f'.repeat(64), seed: 1, actions: ['1'] }).catch((e: unknown) => e);
  t.ok(isSandboxCodeMissing(missing), 'SandboxCodeMissing');
  const bad = await pool.step({ code: VALID_CODE, seed: 1.5, actions: ['1'] }).catch((e: unknown) => e);
  t.ok(isSandboxError(bad) && !isEnvTimeout(bad), 'a non-integer seed is a SandboxRequestError');
  t.equal((bad as Error).name, 'SandboxRequestError');
  const wrong = await pool.step({ code: VALID_CODE, codeHash: 'a'.repeat(64), seed: 1, actions: ['1'] }).catch((e: unknown) => e);
  t.equal((wrong as Error).name, 'SandboxRequestError', 'a hash that does not match its code');
});
