// `npm run bench:learners`: one learner against a learner group of two hosts on the same stream of labeled
// trajectories (the default policy model, 3.48 M parameters), each host its own process on a fresh nats-server; in the
// two-host run one host is SIGKILLed mid-run and restarted. Before that, the all-reduce alone on loopback for 2 and 4
// members with this model's gradient. Prints both side by side and ends with one JSON line. Settings: BENCH_LEARNERS_BATCHES
// (labeled batches of 4 trajectories), BENCH_LEARNERS_ROUNDS (reduce rounds), BENCH_LEARNERS_THREADS (onnxruntime threads per host),
// BENCH_LEARNERS_WAIT_S (how long any one wait may take, default 300: past it the benchmark fails naming what it waited for
// and what each host was doing: its learner's phase and round, and which members its group exchange was missing).
// SIGINT or SIGTERM kills its children (the learner hosts, and the nats-servers, which run in their own process group
// so a terminal's Ctrl-C does not reach them) and removes its work directory before it exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupReduce, readAccounting } from '../actors/learner/index.js';
import { initParameters } from '../model/index.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection, type Connection } from '../runtime/connection.js';
import { startNatsServer, type NatsServerHandle } from '../runtime/nats-server.js';
import { repoPath } from '../runtime/paths.js';
import { BenchError } from '../bench/errors.js';
import { publishAll, trajectories } from './bench-learners-data.js';
import { ensureTopology } from '../runtime/topology.js';

const BATCHES = Number(process.env.BENCH_LEARNERS_BATCHES ?? 48);
const ROUNDS = Number(process.env.BENCH_LEARNERS_ROUNDS ?? 8);
const SKIP_REDUCE = process.env.BENCH_LEARNERS_SKIP_REDUCE === '1';
const THREADS = process.env.BENCH_LEARNERS_THREADS ?? '1';
const WAIT_MS = Number(process.env.BENCH_LEARNERS_WAIT_S ?? 300) * 1000;
const MODEL = { layers: 4, width: 256, heads: 8, kvHeads: 4, contextLength: 256, vocab: 2048 };
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
const ms = (x: number): string => `${x.toFixed(0)} ms`;

interface Line { update: number; trajectories: number; ts: number; computeMs: number; members?: string[]; hash?: string; commMs?: number; bytesSent?: number }

/** The nats-servers started, so a signal can stop them with the hosts. */
const servers: NatsServerHandle[] = [];

async function server(dir: string, name: string): Promise<{ server: NatsServerHandle; conn: Connection; url: string }> {
  const s = await startNatsServer({ storeDir: join(dir, name) });
  servers.push(s);
  const cfg = await loadConfig({ env: {}, set: [`nats.servers=${s.url}`] });
  const conn = await openConnection(cfg.nats, `bench-${name}`);
  await ensureTopology(conn, cfg);
  return { server: s, conn, url: s.url };
}

/** The all-reduce alone: `members` in this process on their own connections, `ROUNDS` rounds of this model's gradient. */
async function reduceOnLoopback(dir: string, members: number, params: number): Promise<{ p50: number; p99: number; bytes: number }> {
  const { server: s, conn } = await server(dir, `reduce-${members}`);
  const cfg = await loadConfig({ env: {}, set: [`nats.servers=${s.url}`] });
  const conns = await Promise.all(Array.from({ length: members }, (_, i) => openConnection(cfg.nats, `reduce-${i}`)));
  const groups = await Promise.all(conns.map((c, i) => GroupReduce.start(c, { hostId: `m${i}`, memberTtlMs: 30_000, roundTimeoutMs: 60_000 }, 0)));
  const grad = new Uint8Array(new Float32Array(params).fill(1e-3).buffer);
  const times: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const res = await Promise.all(groups.map((g) => g.exchange(r, 'g0', grad)));
    times.push(...res.map((x) => x.ms));
    await Promise.all(groups.map((g) => g.appliedRound(r, res[0]!.members)));
  }
  const bytes = groups[0]!.bytesSent / ROUNDS;
  await Promise.all(groups.map((g) => g.close()));
  await Promise.all([...conns, conn].map((c) => c.close()));
  await s.stop();
  return { p50: pct(times, 50), p99: pct(times, 99), bytes };
}


interface Host { id: string; child: ChildProcess; lines: Line[]; status: Record<string, unknown> | null; started: Promise<void>; exited: Promise<void> }

/** Every host started, for the report of a wait that timed out. */
const hosts: Host[] = [];

/** What each host last said it was doing (its status line), one line per host. */
function whereHostsAre(): string {
  return hosts.map((h) => {
    const live = h.child.exitCode === null && h.child.signalCode === null;
    const s = h.status;
    if (s === null) return `  ${h.id} (pid ${h.child.pid}): ${live ? 'no status yet' : 'exited'}`;
    const w = s.waiting as { round: number; part: string; stage: string; have: string[]; missing: string[]; sinceMs: number } | null | undefined;
    const waits = w ? `; waiting ${(w.sinceMs / 1000).toFixed(1)} s in ${w.stage} of round ${w.round} (${w.part}) for ${w.missing.join(', ') || 'nobody (committing)'}, has ${w.have.join(', ') || 'none'}` : '';
    return `  ${h.id} (pid ${h.child.pid}${live ? '' : ', exited'}): learner ${String(s.learner)}, updates ${String(s.updates)}, buffered ${String(s.buffered)}`
      + (s.applied === undefined ? '' : `, applied round ${String(s.applied)}, newest round seen ${String(s.newestRound)}, beats ${JSON.stringify(s.beats)}`)
      + `${waits} (status ${((Date.now() - Number(s.ts)) / 1000).toFixed(1)} s old)`;
  }).join('\n');
}

/** `p`, or a BenchError naming `what` and where every host is once `ms` pass. */
async function within<T>(p: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BenchError(`bench:learners: waited ${ms / 1000} s for ${what}; the hosts:\n${whereHostsAre()}`, { code: 'BENCH_LEARNERS_TIMEOUT', data: { what } })), ms);
    })]);
  } finally {
    clearTimeout(timer);
  }
}

function host(url: string, stateDir: string, id: string, mode: 'group' | 'single', onLine: () => void): Host {
  const child = spawn(process.execPath, [repoPath('dist/scripts/bench-learners-host.js'), url, stateDir, id, mode, THREADS], { stdio: ['ignore', 'pipe', process.env.BENCH_LEARNERS_LOGS ? 'inherit' : 'ignore'] });
  const lines: Line[] = [];
  let buf = '', ready!: () => void, failed!: (err: Error) => void;
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const h: Host = { id, child, lines, status: null, started, exited: new Promise((r) => child.once('exit', () => r())) };
  child.once('exit', (code, sig) => {
    failed(new BenchError(`bench:learners: host ${id} exited (${code ?? sig}) before it started`, { code: 'BENCH_LEARNERS_HOST' }));
    if (lines.length === 0) process.stderr.write(`bench:learners: host ${id} exited (${code ?? sig}) before it trained\n`);
  });
  child.stdout!.on('data', (d: Buffer) => {
    const parts = (buf + d.toString()).split('\n');
    buf = parts.pop()!;
    for (const p of parts) {
      if (p === 'started') ready();
      else {
        const o = JSON.parse(p) as Line | { status: Record<string, unknown> };
        if ('status' in o) h.status = o.status;
        else (lines.push(o), onLine());
      }
    }
  });
  hosts.push(h);
  return h;
}

/** SIGTERM (a drain), then SIGKILL with the hosts' whereabouts on stderr if the drain takes past the wait limit. */
async function stopHosts(...hs: Host[]): Promise<boolean> {
  for (const h of hs) h.child.kill('SIGTERM');
  try {
    await within(Promise.all(hs.map((h) => h.exited)), `${hs.map((h) => h.id).join(' and ')} to drain after SIGTERM`);
    return true;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n(killed)\n`);
    for (const h of hs) h.child.kill('SIGKILL');
    await Promise.all(hs.map((h) => h.exited));
    return false;
  }
}


const appliedIds = async (dir: string): Promise<Map<string, number>> => {
  const out = new Map<string, number>();
  for (const l of await readAccounting(dir)) if (l.kind === 'update') for (const id of l.applied) out.set(id, out.has(id) ? -1 : l.update);
  return out;
};

/** Polls `cond` until it holds; fails after `ms`, or at once when one of `alive` exited (it cannot come true then). */
async function waitFor(cond: () => boolean | Promise<boolean>, what: string, alive: Host[] = [], ms = WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    const gone = alive.find((h) => h.child.exitCode !== null || h.child.signalCode !== null);
    if (gone) throw new BenchError(`bench:learners: ${gone.id} exited (${gone.child.exitCode ?? gone.child.signalCode}) while waiting for ${what}; the hosts:\n${whereHostsAre()}`, { code: 'BENCH_LEARNERS_HOST', data: { what } });
    if (Date.now() > end) throw new BenchError(`bench:learners: waited ${ms / 1000} s for ${what}; the hosts:\n${whereHostsAre()}`, { code: 'BENCH_LEARNERS_TIMEOUT', data: { what } });
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rate = (lines: Line[], total: number): number => {
  const ts = lines.map((l) => l.ts);
  return total / ((Math.max(...ts) - Math.min(...ts)) / 1000 || 1);
};

/**
 * Kills every child still running. Synchronous, so it can run in a signal handler: without one, Node exits on SIGINT
 * or SIGTERM without running its 'exit' handlers, and the detached nats-servers and the hosts stayed behind.
 */
function killChildren(): void {
  for (const h of hosts) if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill('SIGKILL');
  for (const s of servers) if (s.process.exitCode === null && s.process.signalCode === null) s.process.kill('SIGKILL');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-bench-learners-'));
  const abort = (sig: NodeJS.Signals): void => {
    killChildren();
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`bench:learners: ${sig}: hosts and nats-servers killed\n`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  const params = [...initParameters(MODEL, 1).values()].reduce((n, a) => n + a.length, 0);
  const batches = trajectories(BATCHES);
  const total = BATCHES * 4;
  try {
    const none = { p50: NaN, p99: NaN, bytes: params * 4 };
    const r2 = SKIP_REDUCE ? none : await reduceOnLoopback(dir, 2, params);
    const r4 = SKIP_REDUCE ? none : await reduceOnLoopback(dir, 4, params);

    // One learner (the lock, as before groups).
    const one = await server(dir, 'one');
    await publishAll(one.conn, batches);
    const single = host(one.url, join(dir, 'one-state'), 'single', 'single', () => undefined);
    await within(single.started, 'the single learner to start');
    await waitFor(() => single.lines.reduce((n, l) => n + l.trajectories, 0) >= total, 'the single learner', [single]);
    let drained = await stopHosts(single);
    await one.conn.close();
    await one.server.stop();

    // Two learner hosts in a group; b is SIGKILLed after its third round and restarted.
    // Two thirds of the batches first, the rest once b has restarted (so it has rounds to take part in).
    const two = await server(dir, 'two');
    const cut = Math.ceil((batches.length * 2) / 3);
    await publishAll(two.conn, batches.slice(0, cut));
    const [sa, sb] = [join(dir, 'a-state'), join(dir, 'b-state')];
    const a = host(two.url, sa, 'learner-a', 'group', () => undefined);
    let b = host(two.url, sb, 'learner-b', 'group', () => undefined);
    await within(Promise.all([a.started, b.started]), 'learner-a and learner-b to start');
    await waitFor(() => b.lines.length >= 3, 'b\'s third round', [a, b]);
    b.child.kill('SIGKILL');
    await b.exited;
    const bFirst = b.lines;
    const killedAt = bFirst.at(-1)!.update;
    await new Promise((r) => setTimeout(r, 2_000));
    b = host(two.url, sb, 'learner-b', 'group', () => undefined);
    await within(b.started, 'the restarted learner-b to start');
    await publishAll(two.conn, batches.slice(cut));
    await waitFor(async () => (await appliedIds(sa)).size >= total, 'every trajectory applied by the group', [a, b]);
    await waitFor(() => b.lines.length > 0, 'a round of the restarted b', [a, b]);
    drained = (await stopHosts(a, b)) && drained;
    await two.conn.close();
    await two.server.stop();

    const ids = await appliedIds(sa);
    const bIds = await appliedIds(sb);
    const exactlyOnce = ids.size === total && [...ids.values()].every((u) => u > 0) && [...bIds].every(([id, u]) => ids.get(id) === u);
    const bAll = [...bFirst, ...b.lines];
    const hashA = new Map(a.lines.map((l) => [l.update, l.hash]));
    const shared = bAll.filter((l) => hashA.has(l.update));
    const weightsAgree = shared.length > 0 && shared.every((l) => l.hash === hashA.get(l.update));
    const full = a.lines.filter((l) => (l.members?.length ?? 0) === 2);
    const figures = {
      learners: 2, updatesPerLearner: [a.lines.length, bAll.length], weightsAgree, exactlyOnce,
      // The restarted b took part in a round after the one it was killed in (the survivor may have waited for it to
      // join instead of going on alone: a joining member is waited for).
      survivedKill: exactlyOnce && b.lines.length > 0 && b.lines[0]!.update > killedAt,
      // What a member with data pushes in a round (one with nothing to train pushes only its metadata).
      bytesPerUpdate: Math.round(pct([...a.lines, ...bAll].map((l) => l.bytesSent ?? 0).filter((n) => n > 1e5), 50)),
      reduceMsP50: r2.p50, reduceMsP99: r2.p99, reduce4MsP50: r4.p50, reduce4MsP99: r4.p99,
      trajectoriesPerSec: { one: rate(single.lines, total), two: rate(a.lines, total) },
      computeMsP50: pct(full.map((l) => l.computeMs), 50), commMsP50: pct(full.map((l) => l.commMs ?? 0), 50),
      params, drained, killedAfterUpdate: killedAt, restartedAtUpdate: b.lines[0]?.update ?? null, sharedRounds: shared.length,
    };
    console.log(`model: ${params.toLocaleString()} parameters (${(params * 4 / 1e6).toFixed(1)} MB of F32 gradient); ${total} trajectories in ${BATCHES} batches; ${THREADS} onnxruntime thread(s) per host`);
    console.log(`all-reduce on loopback, ${ROUNDS} rounds: 2 members p50 ${ms(r2.p50)} p99 ${ms(r2.p99)}; 4 members p50 ${ms(r4.p50)} p99 ${ms(r4.p99)}; ${(r2.bytes / 1e6).toFixed(1)} MB pushed per member per round`);
    console.log('                     updates   trajectories/s   compute p50   exchange p50');
    console.log(`  one learner      ${String(single.lines.length).padStart(8)} ${figures.trajectoriesPerSec.one.toFixed(2).padStart(16)} ${ms(pct(single.lines.map((l) => l.computeMs), 50)).padStart(13)} ${'-'.padStart(14)}`);
    console.log(`  two (group)      ${`${a.lines.length}+${bAll.length}`.padStart(8)} ${figures.trajectoriesPerSec.two.toFixed(2).padStart(16)} ${ms(figures.computeMsP50).padStart(13)} ${ms(figures.commMsP50).padStart(14)}`);
    console.log(`  two / one: ${(figures.trajectoriesPerSec.two / figures.trajectoriesPerSec.one).toFixed(2)}x (2 cores shared: no speed-up is possible here, see docs/learners.md)`);
    console.log(`  b SIGKILLed after round ${killedAt}, restarted at round ${figures.restartedAtUpdate}; ${shared.length} rounds hashed by both: weights agree ${weightsAgree}; exactly once ${exactlyOnce}`);
    console.log(JSON.stringify(figures));
  } finally {
    // A failed wait leaves hosts (and a server) running: they go with the benchmark.
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
    killChildren();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
