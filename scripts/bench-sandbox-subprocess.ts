// The subprocess baselines of the sandbox benchmark (bench-sandbox.ts): the same random-action episodes run by Node
// child processes, in the three ways a subprocess sandbox can be built. Their CPU is the children's (Linux /proc).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../runtime/paths.js';

export interface BenchEnv {
  label: string;
  path: string;
  actions: string[];
  code: string;
  hash: string;
}

export interface Rate {
  stepsPerSec: number;
  episodesPerSec: number;
  stepsPerCpuSec: number;
  episodesPerCpuSec: number;
}

export function rate(steps: number, episodes: number, wallMs: number, cpu: number): Rate {
  const s = wallMs / 1000;
  return { stepsPerSec: steps / s, episodesPerSec: episodes / s, stepsPerCpuSec: steps / cpu, episodesPerCpuSec: episodes / cpu };
}

export const randomAction = (env: BenchEnv, random: () => number): string => env.actions[Math.floor(random() * env.actions.length)]!;

export const kitPath = repoPath('envs', 'kit.js');
export const kit = existsSync(kitPath) ? readFileSync(kitPath, 'utf8') : undefined;

/** Loads the kit and the module: the start every child script shares. */
const CHILD_PRELUDE = `
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
const [envPath, kitPath, seed, actionsJson] = process.argv.slice(2);
if (kitPath !== '-') vm.runInThisContext(readFileSync(kitPath, 'utf8'));
const mod = await import(envPath);
const env = new mod.default();
`;

const CHILD = `${CHILD_PRELUDE}
let n = 0;
env.reset(Number(seed));
for (const a of JSON.parse(actionsJson)) { const r = env.step(a); n++; if (r.terminated || r.truncated) break; }
process.stdout.write(String(n));
`;

const CHILD_IPC = `${CHILD_PRELUDE}
import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify(env.reset(Number(seed))) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const r = env.step(JSON.parse(line));
  process.stdout.write(JSON.stringify(r) + '\\n');
  if (r.terminated || r.truncated) break;
}
process.exit(0);
`;

const CHILD_EXEC = `${CHILD_PRELUDE}
let r = env.reset(Number(seed));
for (const a of JSON.parse(actionsJson)) r = env.step(a);
process.stdout.write(JSON.stringify(r));
`;

type StepResult = { terminated?: boolean; truncated?: boolean };

/** CPU seconds of waited-for child processes (Linux /proc, 1/100 s ticks). */
function childCpuSec(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Runs one child of `script` on the env and seed (plus `actions` when given); resolves with its whole stdout. */
function runChild(script: string, env: BenchEnv, seed: number, actions?: string[], onOutput?: (child: ChildProcessWithoutNullStreams, out: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [script, env.path, kit ? kitPath : '-', String(seed), ...(actions ? [JSON.stringify(actions)] : [])];
    const child = spawn(process.execPath, args);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      onOutput?.(child, out);
    });
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

/** Times `episodes` episodes, each played by `episode` through children of `source`; returns steps over the children's CPU. */
async function childRate(source: string, episodes: number, episode: (script: string, e: number) => Promise<number>): Promise<Rate> {
  const script = join(mkdtempSync(join(tmpdir(), 'spade-bench-')), 'child.mjs');
  writeFileSync(script, source);
  let steps = 0;
  const t0 = performance.now();
  const c0 = childCpuSec();
  for (let e = 0; e < episodes; e++) steps += await episode(script, e);
  return rate(steps, episodes, performance.now() - t0, childCpuSec() - c0);
}

/** The common subprocess design: one fresh Node process per episode, running it in-process. */
export function subprocessRate(env: BenchEnv, episodes: number, random: () => number): Promise<Rate> {
  return childRate(CHILD, episodes, async (script, e) => {
    const actions = Array.from({ length: 64 }, () => randomAction(env, random));
    return Number(await runChild(script, env, e + 1, actions));
  });
}

/** The subprocess design as an agent drives it: one Node process per episode, one stdio round trip per
 *  step (the action comes from outside between steps), the same shape of work as a pool step request. */
export function subprocessIpcRate(env: BenchEnv, episodes: number, random: () => number): Promise<Rate> {
  return childRate(CHILD_IPC, episodes, async (script, e) => {
    let n = -1;
    let read = 0;
    await runChild(script, env, e + 1, undefined, (child, out) => {
      for (let i = out.indexOf('\n', read); i >= 0; i = out.indexOf('\n', read)) {
        const r = JSON.parse(out.slice(read, i)) as StepResult;
        read = i + 1;
        n++;
        if (r.terminated || r.truncated || n >= 64) child.stdin.end();
        else child.stdin.write(`${JSON.stringify(randomAction(env, random))}\n`);
      }
    });
    return n;
  });
}

/** The baseline as the issue states it: one Node child process per execution (every reset and every step),
 *  each rebuilding the episode's state by replaying its actions — the stateless subprocess-sandbox design. */
export function subprocessPerExecutionRate(env: BenchEnv, episodes: number, random: () => number): Promise<Rate> {
  const run = async (script: string, seed: number, actions: string[]): Promise<StepResult> => JSON.parse((await runChild(script, env, seed, actions)) || '{}') as StepResult;
  return childRate(CHILD_EXEC, episodes, async (script, e) => {
    const actions: string[] = [];
    await run(script, e + 1, actions);
    for (;;) {
      actions.push(randomAction(env, random));
      const r = await run(script, e + 1, actions);
      if (r.terminated || r.truncated || actions.length >= 64) return actions.length;
    }
  });
}
