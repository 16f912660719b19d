// `npm run bench:learner-group-of-one`: what a learner group of one host (loop.learner.group.enabled=true) costs per update
// against the single learner (group=false), on the same configuration (bench-learners-host.ts: the default policy
// model, minibatches of 16 trajectories, one onnxruntime thread, every batch waiting before the host starts), each run
// its own host process on a fresh nats-server. Runs alternate (single, group, single, ...) so the machine's load falls
// on both alike. Per mode, over all its runs: the median time from one update to the next (train, publish, and a
// checkpoint every 4th), the median compute, and for the group the median exchange (its round's two parts with no
// other member: push, commit, gather). Settings: BENCH_GROUP1_RUNS (runs per mode, default 3), BENCH_GROUP1_BATCHES
// (labeled batches of 4 trajectories per run, default 32). SIGINT/SIGTERM kill its host and server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchError } from '../bench/errors.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection } from '../runtime/connection.js';
import { startNatsServer, type NatsServerHandle } from '../runtime/nats-server.js';
import { repoPath } from '../runtime/paths.js';
import { ensureTopology } from '../runtime/topology.js';
import { publishAll, trajectories } from './bench-learners-data.js';

const RUNS = Number(process.env.BENCH_GROUP1_RUNS ?? 3);
const BATCHES = Number(process.env.BENCH_GROUP1_BATCHES ?? 32);
const WAIT_MS = 600_000;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Line { update: number; trajectories: number; ts: number; computeMs: number; commMs?: number }
type Mode = 'single' | 'group';

let child: ChildProcess | null = null;
let server: NatsServerHandle | null = null;

/** One run: a fresh server with every batch waiting, one host in `mode` until it applied them all. */
async function run(dir: string, mode: Mode, i: number): Promise<Line[]> {
  server = await startNatsServer({ storeDir: join(dir, `${mode}-${i}`, 'nats') });
  const cfg = await loadConfig({ env: {}, set: [`nats.servers=${server.url}`] });
  const conn = await openConnection(cfg.nats, 'bench-group-of-one');
  await ensureTopology(conn, cfg);
  await publishAll(conn, trajectories(BATCHES));
  const lines: Line[] = [];
  const host = spawn(process.execPath, [repoPath('dist/scripts/bench-learners-host.js'), server.url, join(dir, `${mode}-${i}`, 'state'), `learner-${mode}`, mode, '1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  child = host;
  const exited = new Promise<void>((r) => host.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new BenchError(`bench:learner-group-of-one: the ${mode} host applied ${lines.reduce((n, l) => n + l.trajectories, 0)} of ${BATCHES * 4} trajectories in ${WAIT_MS / 1000} s`, { code: 'BENCH_GROUP1_TIMEOUT' })), WAIT_MS);
    host.once('exit', (code, sig) => (clearTimeout(timer), reject(new BenchError(`bench:learner-group-of-one: the ${mode} host exited (${code ?? sig})`, { code: 'BENCH_GROUP1_HOST' }))));
    host.stdout!.on('data', (d: Buffer) => {
      const parts = (buf + d.toString()).split('\n');
      buf = parts.pop()!;
      for (const p of parts) {
        if (!p.startsWith('{"update"')) continue;
        lines.push(JSON.parse(p) as Line);
        if (lines.reduce((n, l) => n + l.trajectories, 0) >= BATCHES * 4) (clearTimeout(timer), resolve());
      }
    });
  });
  host.kill('SIGTERM');
  await exited;
  await conn.close();
  await server.stop();
  return lines.sort((a, b) => a.update - b.update);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-bench-group-of-one-'));
  const abort = (sig: NodeJS.Signals): void => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`bench:learner-group-of-one: ${sig}: host and nats-server killed\n`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  const by: Record<Mode, { gaps: number[]; compute: number[]; comm: number[]; updates: number[] }> = {
    single: { gaps: [], compute: [], comm: [], updates: [] }, group: { gaps: [], compute: [], comm: [], updates: [] },
  };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const mode of ['single', 'group'] as const) {
        const lines = await run(dir, mode, i);
        const m = by[mode];
        m.updates.push(lines.length);
        for (let k = 1; k < lines.length; k++) m.gaps.push(lines[k]!.ts - lines[k - 1]!.ts);
        m.compute.push(...lines.map((l) => l.computeMs));
        if (mode === 'group') m.comm.push(...lines.map((l) => l.commMs ?? 0));
        process.stderr.write(`run ${i + 1} ${mode}: ${lines.length} updates, per update median ${median(lines.slice(1).map((l, k) => l.ts - lines[k]!.ts)).toFixed(0)} ms\n`);
      }
    }
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
    rmSync(dir, { recursive: true, force: true });
  }
  const fig = {
    runsPerMode: RUNS, updatesPerRun: by.single.updates[0],
    single: { perUpdateMsP50: median(by.single.gaps), computeMsP50: median(by.single.compute) },
    groupOfOne: { perUpdateMsP50: median(by.group.gaps), computeMsP50: median(by.group.compute), exchangeMsP50: median(by.group.comm) },
  };
  const extra = fig.groupOfOne.perUpdateMsP50 - fig.single.perUpdateMsP50;
  console.log(`per update, median over ${RUNS} runs of ${fig.updatesPerRun} updates each: single ${fig.single.perUpdateMsP50.toFixed(0)} ms (compute ${fig.single.computeMsP50.toFixed(0)} ms); group of one ${fig.groupOfOne.perUpdateMsP50.toFixed(0)} ms (compute ${fig.groupOfOne.computeMsP50.toFixed(0)} ms, exchange ${fig.groupOfOne.exchangeMsP50.toFixed(0)} ms): ${extra >= 0 ? '+' : ''}${extra.toFixed(0)} ms (${((extra / fig.single.perUpdateMsP50) * 100).toFixed(0)} %)`);
  console.log(JSON.stringify({ ...fig, extraMsPerUpdate: extra }));
}

await main();
