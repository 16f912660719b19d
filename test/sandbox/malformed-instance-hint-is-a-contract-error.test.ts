// A reset() hint that is not a non-empty string of at most 8192 characters is an EnvContract error at stage reset
// whose message names reset().hint and what was expected.
import t from 'tap';
import { isEnvContract, SandboxPool } from '../../sandbox/index.js';

const badHint = (hint: string): string =>
  `export const spec = { name: "bad-hint", description: "d", hint: "h", maxTurns: 2 };
export default class Env { reset(seed) { return { observation: "o", hint: ${hint} }; } step(a) { return { observation: "x", reward: 0, terminated: true }; } }`;

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('a malformed instance hint is a contract error naming reset().hint', async (t) => {
  for (const [value, why] of [['42', 'a string'], ['"  "', 'a non-empty string'], ['"x".repeat(9000)', 'longer than 8192']] as const) {
    const err = await pool.reset({ code: badHint(value), seed: 1 }).then(() => null, (e: unknown) => e);
    t.ok(isEnvContract(err), `${value}: EnvContract`);
    t.match((err as Error).message, /reset\(\)\.hint/, `${value}: names the field`);
    t.match((err as Error).message, why);
    t.equal((err as { stage?: string }).stage, 'reset');
  }
});
