// The shipped environment library as warm-start material: each module's source, family and spec, and a Node vm
// copy of the module (kit loaded, Math.random seeded per reset like the sandbox) to ask its oracle for actions.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { repoPath } from '../runtime/paths.js';
import { FIXED_EPOCH_MS, makeRandom, type EnvSpec } from '../sandbox/index.js';
import { WarmStartDataError } from './errors.js';
import { loadLibraryEnvs, type LibraryEnv as ShippedEnv } from '../actors/designer/index.js';

export const LIBRARY_FAMILIES = ['reasoning', 'tools', 'games'] as const;
export type LibraryFamily = (typeof LIBRARY_FAMILIES)[number];

/** The spec fields the warm start reads (the sandbox's EnvSpec less what only the sandbox's checks derive). */
export type LibrarySpec = Omit<EnvSpec, 'hasOracle'>;

/** A library module (as the designer's loader reads it) with its family checked and its spec read. */
export interface LibraryEnv extends ShippedEnv {
  family: LibraryFamily;
  spec: LibrarySpec;
}

/** A live copy of a module in a Node vm: only for computing oracle actions, the sandbox stays authoritative. */
export interface VmEnv {
  /** The first observation and the instance's hint (contract v2's, else spec.hint; `instanceHint` says which). */
  reset(seed: number): { observation: string; hint: string; instanceHint: boolean };
  step(action: string): { observation: string; reward: number; terminated: boolean };
  /** The oracle's next action; `hint` is passed as its third argument in hinted play (a hint-aware oracle uses it). */
  oracle(history: { observation: string; action: string }[], hint?: string): string;
}

let kitSource: string | undefined;

/** Every library module, in family then file order (read by the designer's fixed-environment loader). */
export function loadLibrary(root = repoPath('envs', 'library')): LibraryEnv[] {
  const all = loadLibraryEnvs(root);
  return LIBRARY_FAMILIES.flatMap((family) =>
    all.filter((e) => e.family === family).map(({ name, code }) => ({ name, family, code, spec: evaluate(code, name, { current: () => 0 }).spec as LibrarySpec })));
}

/** A module that is not a library file (a validated child of the warm start's edits) as a LibraryEnv under `key`. */
export function libraryEnvOf(code: string, key: string, family: LibraryFamily): LibraryEnv {
  return { name: key, family, code, spec: evaluate(code, key, { current: () => 0 }).spec as LibrarySpec };
}

/** A drill module (options.drills) read from its file, named by its spec and counted in the reasoning family. */
export function drillEnv(path: string): LibraryEnv {
  let code: string;
  try {
    code = readFileSync(path, 'utf8');
  } catch (err) {
    throw new WarmStartDataError(`drill module ${path} cannot be read: ${(err as Error).message}`, path);
  }
  const name = (evaluate(code, path, { current: () => 0 }).spec as Partial<LibrarySpec> | undefined)?.name;
  if (typeof name !== 'string' || name === '') throw new WarmStartDataError(`drill module ${path} exports no spec.name`, path);
  return libraryEnvOf(code, name, 'reasoning');
}

// ES module syntax becomes a script whose last expression hands back the three exports.
function evaluate(code: string, env: string, random: { current: () => number }): { spec: unknown; Env: new () => any; oracle?: (o: string, h: unknown[], hint?: string) => unknown } {
  kitSource ??= readFileSync(repoPath('envs', 'kit.js'), 'utf8');
  const cls = /^export default class (\w+)/m.exec(code)?.[1];
  if (!cls) throw new WarmStartDataError(`${env}: no "export default class Name" line`, env);
  const script = code.replace(/^export default class /m, 'class ').replace(/^export (const|let|function|class) /gm, '$1 ');
  const FixedDate = class extends Date {
    constructor(...a: unknown[]) { if (a.length === 0) super(FIXED_EPOCH_MS); else super(...(a as [number])); }
    static override now(): number { return FIXED_EPOCH_MS; }
  };
  const ctx = vm.createContext({ Date: FixedDate });
  (vm.runInContext('Math', ctx) as { random: () => number }).random = () => random.current();
  try {
    vm.runInContext(kitSource, ctx, { filename: 'kit.js' });
    return vm.runInContext(`${script}\n;({ spec, Env: ${cls}, oracle: typeof oracle === 'function' ? oracle : undefined })`, ctx, { filename: `${env}.js` });
  } catch (err) {
    throw new WarmStartDataError(`${env}: module failed to evaluate in the vm: ${(err as Error).message}`, env, err);
  }
}

export function vmEnv(e: LibraryEnv): VmEnv {
  const random = { current: makeRandom(0) };
  const m = evaluate(e.code, e.name, random);
  if (!m.oracle) throw new WarmStartDataError(`${e.name}: exports no oracle`, e.name);
  const oracle = m.oracle;
  let inst: any = null;
  let lastObs = '';
  return {
    reset(seed) {
      random.current = makeRandom(seed);
      inst = new m.Env();
      const first = inst.reset(seed);
      lastObs = String(first.observation);
      const instanceHint = typeof first.hint === 'string';
      const hint = instanceHint ? first.hint : String((m.spec as { hint?: unknown }).hint ?? '');
      return { observation: lastObs, hint, instanceHint };
    },
    step(action) {
      const r = inst.step(action);
      lastObs = String(r.observation);
      return { observation: lastObs, reward: Number(r.reward), terminated: r.terminated === true };
    },
    oracle(history, hint) {
      return String(oracle(lastObs, history.map((h) => ({ ...h })), hint));
    },
  };
}
