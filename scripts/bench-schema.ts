// `npm run bench:schema`: the message hot path (msgpack decode + schema check) with runtime/schema.ts against TypeBox
// (compiled checker and Value.Check) and zod (bench/schema-baselines.mjs), on a realistic traj.labeled batch, a
// traj.group and a small design.job. Prints a table (median of BENCH_SCHEMA_RUNS runs, ns per message, ratio to
// runtime/schema.ts) and ends with one JSON line. The decision it informs is in docs/configuration.md.
import { pathToFileURL } from 'node:url';
import { BaselineUnavailableError } from '../bench/errors.js';
import { DesignJob, LabeledBatch, TrajectoryGroup, type Sample } from '../actors/loop/index.js';
import { unpack } from '../runtime/codec.js';
import { decodeAny, encode, type MessageType } from '../runtime/messages.js';
import { repoPath } from '../runtime/paths.js';

const RUNS = Number(process.env.BENCH_SCHEMA_RUNS ?? 7);
const RUN_MS = Number(process.env.BENCH_SCHEMA_RUN_MS ?? 150);

type Checker = (v: unknown) => boolean;
interface Baselines { versions: Record<string, string>; checkers: Record<string, Record<Kind, Checker>>; jsonSchemaOfLabeled: string }
type Kind = 'labeled' | 'group' | 'job';

const i32 = (n: number, f: (i: number) => number) => new Uint8Array(Int32Array.from({ length: n }, (_, i) => f(i)).buffer);
const f32 = (n: number) => new Uint8Array(Float32Array.from({ length: n }, (_, i) => -0.1 * (i % 17)).buffer);
function sample(promptLen: number, len: number, text: string): Sample {
  return { promptTokens: i32(promptLen, (i) => (i * 7) % 2048), tokens: i32(len, (i) => (i * 13) % 2048), logprobs: f32(len), versions: i32(len, () => 3), text, finishReason: 'stop' };
}
const CODE = `export const spec = { name: 'odd-coin', description: '${'Find the odd coin. '.repeat(20)}', hint: 'weigh halves', maxTurns: 8 };\n${'// body\n'.repeat(300)}`;
const TURNS = 8;
const K = 4;

/** One evaluated environment: the designer sample (600-token prompt, 900-token module) and 2k agent episodes of 8 turns. */
function labeledBatch() {
  const agent = Array.from({ length: 2 * K }, (_, e) => ({
    trajId: `env-1/${e < K ? 'n' : 'h'}${e % K}`, role: 'agent' as const, advantage: 0.3, reward: 0.5,
    samples: Array.from({ length: TURNS }, (_, t) => sample(400 + 40 * t, 24, `move ${t}`)),
  }));
  return {
    batchId: 'batch-env-1', envId: 'env-1', iteration: 7, accepted: true, regret: 0.25, returnHint: 0.75, returnNoHint: 0.5, feasible: true, designerReward: 0.25,
    trajectories: [{ trajId: 'env-1/designer', role: 'designer' as const, advantage: 0.8, reward: 0.25, samples: [sample(600, 900, CODE)] }, ...agent],
  };
}

function trajectoryGroup() {
  const env = {
    envId: 'env-1', jobId: 'job-1', iteration: 7, code: CODE, codeHash: 'a'.repeat(64), family: 'reasoning', parents: ['env-0'],
    spec: { name: 'odd-coin', description: 'Find the odd coin.', hint: 'weigh halves', maxTurns: 8 }, designer: sample(600, 900, CODE),
    validation: { oracleMean: 1, randomMean: 0.1, constantMean: 0, ms: 120 },
  };
  const episodes = Array.from({ length: 2 * K }, (_, e) => ({
    trajId: `env-1/${e < K ? 'n' : 'h'}${e % K}`, hinted: e >= K, seed: e % K, return: 0.5, terminated: true,
    turns: Array.from({ length: TURNS }, (_, t) => sample(400 + 40 * t, 24, `move ${t}`)), rewards: Array.from({ length: TURNS }, () => 0.0625),
  }));
  return { groupId: 'group-env-1', env, episodes };
}

const MESSAGES: Record<Kind, { def: MessageType<unknown>; body: unknown }> = {
  labeled: { def: LabeledBatch as MessageType<unknown>, body: labeledBatch() },
  group: { def: TrajectoryGroup as MessageType<unknown>, body: trajectoryGroup() },
  job: { def: DesignJob as MessageType<unknown>, body: { jobId: 'job-12', iteration: 3, seed: 41, minPolicyVersion: 2 } },
};

/** Breaks one deep field (the last trajectory's iteration-like integer), so every checker must walk the whole message. */
function broken(kind: Kind, body: unknown): unknown {
  const b = structuredClone(body) as Record<string, never>;
  if (kind === 'labeled') (b.trajectories as { samples: Sample[] }[]).at(-1)!.samples.at(-1)!.text = 5 as never;
  if (kind === 'group') (b.episodes as { seed: number }[]).at(-1)!.seed = -1;
  if (kind === 'job') (b as unknown as { seed: number }).seed = 1.5;
  return b;
}

/** ns per call of each function: the runs are interleaved (one run of each, RUNS times), so load on a shared machine hits all alike. */
function timeAll(fns: Record<string, () => void>): Record<string, number> {
  for (const fn of Object.values(fns)) for (let i = 0; i < 50; i++) fn();
  const runs: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      let n = 0;
      const t0 = process.hrtime.bigint();
      const end = t0 + BigInt(RUN_MS * 1e6);
      let t = t0;
      while (t < end) {
        for (let i = 0; i < 20; i++) fn();
        n += 20;
        t = process.hrtime.bigint();
      }
      runs[name]!.push(Number(t - t0) / n);
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!]));
}

async function loadBaselines(): Promise<Baselines> {
  const href = pathToFileURL(repoPath('bench', 'schema-baselines.mjs')).href;
  try {
    return await ((await import(href)) as { loadSchemaBaselines(): Promise<Baselines> }).loadSchemaBaselines();
  } catch (err) {
    throw new BaselineUnavailableError(`bench/schema-baselines.mjs cannot load (run npm --prefix bench install): ${(err as Error).message}`, err);
  }
}

async function main(): Promise<void> {
  const base = await loadBaselines();
  const results: Record<string, Record<string, number>> = {};
  for (const kind of Object.keys(MESSAGES) as Kind[]) {
    const { def, body } = MESSAGES[kind];
    const bytes = encode(def, body);
    const decoded = (unpack(bytes) as { b: unknown }).b;
    const bad = broken(kind, decoded);
    const checkers: Record<string, Checker> = { 'runtime/schema.ts': (v) => def.schema.check(v, def.type) === null };
    for (const [name, byKind] of Object.entries(base.checkers)) checkers[name] = byKind[kind];
    for (const [name, c] of Object.entries(checkers))
      if (!c(decoded) || c(bad)) throw new Error(`${name} does not agree on ${kind}: accepts good ${c(decoded)}, accepts broken ${c(bad)}`);
    const fns: Record<string, () => void> = { 'decode only': () => void unpack(bytes), 'decodeAny (runtime/messages.ts)': () => void decodeAny(bytes) };
    for (const [name, c] of Object.entries(checkers)) {
      fns[`check ${name}`] = () => void c(decoded);
      fns[`decode+check ${name}`] = () => void c((unpack(bytes) as { b: unknown }).b);
    }
    const r: Record<string, number> = { bytes: bytes.length, ...timeAll(fns) };
    results[kind] = r;
    const ref = r['decode+check runtime/schema.ts']!;
    console.log(`\n${kind} (${def.type}, ${bytes.length} bytes)`);
    for (const [k, v] of Object.entries(r)) {
      if (k === 'bytes') continue;
      const ratio = k.startsWith('decode+check') ? `  ×${(v / ref).toFixed(2)} of runtime/schema.ts` : '';
      console.log(`  ${k.padEnd(40)} ${v >= 1e4 ? `${(v / 1e3).toFixed(1)} µs` : `${v.toFixed(0)} ns`}${ratio}`);
    }
  }
  console.log(JSON.stringify({ bench: 'schema', runs: RUNS, runMs: RUN_MS, node: process.version, versions: base.versions, nsPerMessage: results }));
}

await main();
