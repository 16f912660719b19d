// Test helper: evaluates envs/kit.js in a fresh Node vm context whose Math.random is the sandbox's documented PRNG,
// so kit behaviour can be checked (and compared with the real sandbox) without QuickJS.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { makeRandom } from '../../sandbox/index.js';
import { repoPath } from '../../runtime/paths.js';

export const KIT_SOURCE = readFileSync(repoPath('envs', 'kit.js'), 'utf8');

export interface KitContext {
  /** Evaluates an expression in the context (where `kit` is the global kit) and returns its value. */
  run(expression: string): unknown;
}

/** A context with Math.random seeded as the sandbox seeds it at reset(seed), and the kit loaded. */
export function kitContext(seed: number): KitContext {
  const ctx = vm.createContext({});
  const random = makeRandom(seed);
  vm.runInContext('Math', ctx); // materialise the context's own Math
  (vm.runInContext('Math', ctx) as { random: () => number }).random = random;
  vm.runInContext(KIT_SOURCE, ctx, { filename: 'kit.js' });
  return { run: (expression) => vm.runInContext(expression, ctx) };
}
