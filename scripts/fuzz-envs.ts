// `npm run fuzz:envs -- [--count N] [--seed S]`: mutates the environment library and the hostile corpus (line
// deletions, duplications, swaps, splices, truncations, character flips, hostile values and hostile snippets) and
// runs every program through the sandbox's `validate`, `reset` and `step` with hostile actions. Checks: the process
// and the pool survive (a valid program is served after every 50 and at the end), every failure is typed (an EnvError
// in the report or thrown, or a SandboxError), and no program reaches the canary file or the canary global (their
// secrets never appear in any result, and the file the snippets try to write never appears). Ends with one JSON line.
// The suite runs a short variant (test/sandbox/mutated-programs-are-contained-and-typed.test.ts).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { repoPath } from '../runtime/paths.js';
import { isEnvError, isSandboxError, SandboxPool, type ValidationReport } from '../sandbox/index.js';
import { mulberry32 } from '../test/helpers/random.js';

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** The canary global's name (set on globalThis and in process.env, which worker threads copy). */
export const CANARY_GLOBAL = 'FUZZ_CANARY';

/** Snippets a program may try: reach the host, the canary global or the canary file, tamper, loop, allocate, throw. */
function hostileSnippets(file: string): string[] {
  const f = JSON.stringify(file);
  const leak = (expr: string) => `try { __leak = String(${expr}); } catch (e) { __leak = String(e); }`;
  return [
    // The control: a value the sandbox may read, so the leak channel is shown to carry what a snippet reads.
    leak(`"leak-channel-" + "open"`),
    leak(`globalThis.${CANARY_GLOBAL}`),
    leak(`({}).constructor.constructor("return process")().env.${CANARY_GLOBAL}`),
    leak(`(function(){ return this })().${CANARY_GLOBAL}`),
    leak(`require("fs").readFileSync(${f}, "utf8")`),
    leak(`std.loadFile(${f})`),
    leak(`os.open(${f}, 0)`),
    leak(`require("fs").writeFileSync(${f} + ".pwned", "x")`),
    leak(`std.open(${f} + ".pwned", "w").puts("x")`),
    `import(${f}).then((m) => { __leak = String(m); }, () => {});`,
    leak(`fetch("file://" + ${f})`),
    'Object.prototype.toString = () => { while (true) {} };',
    'Array.prototype.push = null;',
    'JSON.stringify = () => "{}";',
    'Object.defineProperty(Object.prototype, "observation", { get() { return 1; }, configurable: true });',
    'Math.random = () => 0.5;',
    'Date.now = () => Math.random();',
    'while (true) {}',
    'const bomb = []; for (;;) bomb.push("x".repeat(1 << 20));',
    'function r() { return r(); } r();',
    'throw Symbol("hostile");',
    'throw { toString() { while (true) {} } };',
    'throw new Proxy({}, { get() { throw new Error("trap"); } });',
    'Promise.resolve().then(function spin() { Promise.resolve().then(spin); });',
  ];
}

const VALUES = ['Infinity', 'NaN', '-1', '1e308', 'null', 'undefined', '"x".repeat(1e7)', '[]', '{}', 'this', 'globalThis', '-0', '2**53', '"\\u0000"', 'Symbol()'];

/**
 * `code` with `snippet` at the start of reset or step (a random one, given `rng`; else at the top level), and what
 * the snippet read (kept in a module variable: the global object is frozen) sent out as the first observation, the
 * channel a leak would use.
 */
export function withSnippet(code: string, snippet: string, rng: Rng | null): string {
  const lines = code.split('\n');
  const inside = lines.map((l, i) => (/^\s+(reset|step)\s*\(.*\)\s*\{\s*$/.test(l) ? i : -1)).filter((i) => i >= 0);
  const where = rng && inside.length ? pick(rng, inside) : -1;
  const out = ['let __leak;', ...lines.slice(0, where + 1), snippet, ...lines.slice(where + 1)].join('\n');
  if (!out.includes('export default class Env')) return out;
  return `${out.replace('export default class Env', 'class Env')}
export default class Leaky extends Env { reset(seed) { const r = super.reset(seed); try { if (__leak !== undefined) r.observation = String(__leak); } catch {} return r; } }
`;
}

/** One mutation of `code`; `others` are other programs to splice from. */
export function mutateProgram(code: string, rng: Rng, others: readonly string[], file: string): { kind: string; code: string } {
  const lines = code.split('\n');
  const at = Math.floor(rng() * lines.length);
  const kinds: Array<() => { kind: string; code: string }> = [
    () => ({ kind: 'delete line', code: lines.filter((_, i) => i !== at).join('\n') }),
    () => ({ kind: 'duplicate line', code: [...lines.slice(0, at + 1), lines[at]!, ...lines.slice(at + 1)].join('\n') }),
    () => {
      const b = Math.floor(rng() * lines.length);
      const out = [...lines];
      [out[at], out[b]] = [out[b]!, out[at]!];
      return { kind: 'swap lines', code: out.join('\n') };
    },
    () => {
      const other = pick(rng, others).split('\n');
      return { kind: 'splice two programs', code: [...lines.slice(0, at), ...other.slice(Math.floor(rng() * other.length))].join('\n') };
    },
    () => ({ kind: 'truncate', code: code.slice(0, Math.floor(rng() * code.length)) }),
    () => {
      const chars = [...code];
      for (let n = 0; n < 3; n++) chars[Math.floor(rng() * chars.length)] = pick(rng, [...'{}()[];,.=+-*/"`\'\\\n0x']);
      return { kind: 'flip characters', code: chars.join('') };
    },
    () => {
      const tokens = [...code.matchAll(/\b(?:\d+(?:\.\d+)?|true|false|"[^"\n]*")/g)];
      if (!tokens.length) return { kind: 'no token to replace', code };
      const tok = pick(rng, tokens);
      const v = pick(rng, VALUES);
      return { kind: `value ${v}`, code: code.slice(0, tok.index) + v + code.slice(tok.index! + tok[0].length) };
    },
    () => {
      const snippets = hostileSnippets(file);
      // One in five is the control (the first snippet).
      const snippet = rng() < 0.2 ? snippets[0]! : pick(rng, snippets);
      return { kind: `snippet ${snippet.slice(0, 40)}`, code: withSnippet(code, snippet, rng() < 0.7 ? rng : null) };
    },
  ];
  return pick(rng, kinds)();
}

/** The programs mutated: the library's modules and the hostile corpus. */
export function seedPrograms(): string[] {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.js') ? [p] : [];
  });
  return [...walk(repoPath('envs', 'library')), ...walk(repoPath('test', 'fixtures', 'hostile'))].sort().map((p) => readFileSync(p, 'utf8'));
}

export interface EnvFuzzReport {
  seed: number;
  programs: number;
  /** Programs validation accepted, and programs it refused (each at a stage). */
  accepted: number;
  refused: number;
  /** reset/step calls made, and how many failed with a typed error. */
  calls: number;
  typedCallErrors: number;
  /** Failures without a typed error (must be empty). */
  untyped: string[];
  /** Results that held a canary secret, or the file a snippet wrote (must be empty). */
  escapes: string[];
  /** Results that carried the control snippet's value: the channel a leak would use works (must be > 0). */
  channelSeen: number;
  /** Times a valid program was served in between (all must pass). */
  servedValid: number;
  servedValidFailed: number;
  seconds: number;
}

const ACTIONS = ['1', '', 'x'.repeat(60_000), '\u0000', '__proto__', 'constructor', '{"a":1}', '-1e308', '🙂'];

export async function runEnvFuzz(opts: { count: number; seed: number; log?: (line: string) => void }): Promise<EnvFuzzReport> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const t0 = Date.now();
  const rng = mulberry32(opts.seed);
  const dir = mkdtempSync(join(tmpdir(), 'spade-fuzz-envs-'));
  const file = join(dir, 'canary.txt');
  const secrets = [`canary-file-${opts.seed}-${Math.floor(rng() * 1e9)}`, `canary-global-${opts.seed}-${Math.floor(rng() * 1e9)}`];
  writeFileSync(file, secrets[0]!);
  (globalThis as Record<string, unknown>)[CANARY_GLOBAL] = secrets[1];
  process.env[CANARY_GLOBAL] = secrets[1];
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000, workerMemoryCapBytes: 128 * 1024 * 1024 });
  const programs = seedPrograms();
  const valid = readFileSync(repoPath('test', 'fixtures', 'sum-to-target.js'), 'utf8');
  const report: EnvFuzzReport = { seed: opts.seed, programs: 0, accepted: 0, refused: 0, calls: 0, typedCallErrors: 0, untyped: [], escapes: [], channelSeen: 0, servedValid: 0, servedValidFailed: 0, seconds: 0 };
  const scan = (what: string, value: unknown): void => {
    const text = JSON.stringify(value) ?? '';
    if (text.includes('leak-channel-open')) report.channelSeen++;
    for (const s of secrets) if (text.includes(s)) report.escapes.push(`${what}: a result holds ${s.startsWith('canary-file') ? 'the canary file' : 'the canary global'}`);
  };
  const servesValid = async (): Promise<void> => {
    try {
      await pool.reset({ code: valid, seed: 7 });
      const r = await pool.step({ code: valid, seed: 7, actions: ['5', '9'] });
      if (r.turn === 2) report.servedValid++;
      else report.servedValidFailed++;
    } catch (err) {
      report.servedValidFailed++;
      log(`fuzz: the pool no longer serves a valid program: ${(err as Error).message}`);
    }
  };
  try {
    // Program 0 is the control: the valid fixture sends out what a permitted read got, so the channel is shown open.
    for (let i = 0; i <= opts.count; i++) {
      const m = i === 0 ? { kind: 'control', code: withSnippet(valid, hostileSnippets(file)[0]!, null) } : mutateProgram(pick(rng, programs), rng, programs, file);
      const what = `#${i} ${m.kind}`;
      report.programs++;
      let r: ValidationReport;
      try {
        r = await pool.validate(m.code, { seeds: 2 });
      } catch (err) {
        report.untyped.push(`${what}: validate threw ${(err as Error).name}: ${(err as Error).message}`);
        continue;
      }
      scan(what, r);
      if (r.ok) report.accepted++;
      else {
        report.refused++;
        const failing = r.stages.find((s) => !s.ok);
        if (failing?.error && !/^(ENV_|SANDBOX_)/.test(failing.error.code ?? '')) report.untyped.push(`${what}: ${failing.stage} failed with ${failing.error.name}: ${failing.error.message}`);
      }
      for (let seed = 1; seed <= 2; seed++) {
        const actions = [pick(rng, ACTIONS), pick(rng, ACTIONS)];
        for (const call of [() => pool.reset({ code: m.code, seed }), () => pool.step({ code: m.code, seed, actions })]) {
          report.calls++;
          try {
            scan(what, await call());
          } catch (err) {
            if (isEnvError(err) || isSandboxError(err)) {
              report.typedCallErrors++;
              scan(what, (err as Error).message);
            } else report.untyped.push(`${what}: a call threw ${(err as Error).name}: ${(err as Error).message}`);
            break;
          }
        }
      }
      if (existsSync(`${file}.pwned`)) report.escapes.push(`${what}: wrote ${file}.pwned`);
      if (i > 0 && i % 50 === 0) {
        await servesValid();
        log(`fuzz: ${i} programs, ${report.accepted} accepted, ${report.untyped.length} untyped, ${report.escapes.length} escapes`);
      }
    }
    await servesValid();
  } finally {
    await pool.close();
    delete (globalThis as Record<string, unknown>)[CANARY_GLOBAL];
    delete process.env[CANARY_GLOBAL];
    rmSync(dir, { recursive: true, force: true });
  }
  report.seconds = Math.round((Date.now() - t0) / 1000);
  return report;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' }, seed: { type: 'string', default: '1' } } });
  const r = await runEnvFuzz({ count: Number(values.count), seed: Number(values.seed) });
  const { untyped, escapes, ...figures } = r;
  for (const u of untyped) process.stderr.write(`untyped: ${u}\n`);
  for (const e of escapes) process.stderr.write(`escape: ${e}\n`);
  process.stdout.write(`${JSON.stringify({ ...figures, untyped: untyped.length, escapes: escapes.length })}\n`);
  process.exitCode = untyped.length || escapes.length || r.servedValidFailed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
