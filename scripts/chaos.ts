// `npm run chaos -- [--minutes N] [--seed S] [--interval 30s] [--server-kills] [--cluster [--link-cuts]] [--open]`: a run split over
// one host process per role (coordinator, designer, agent, sandbox, evaluator, learner) on a nats-server this script
// owns (with --cluster, a 3-node JetStream cluster with R3 streams, scripts/soak-servers.ts). Every
// interval a scheduler SIGKILLs a random role's process and starts it again with the same command line; with
// --server-kills every third kill is a nats-server's instead (restarted on the same port and store directory; in a
// cluster a random one of the three, and at the end every stream's replicas must have caught up); with --link-cuts
// (a cluster) every third fault from the second cuts every route of a random server for 5 s and heals it.
// After N minutes the killing stops, the coordinator is restarted to finish the iterations it issued, the learner
// drains and stops. Then an independent checker reads the streams (every labeled trajectory, every raw group and
// rejected environment, the dead letters) and the learner's accounting ledger up to its last checkpoint, and
// reports every trajectory published, applied, dropped (with reason) and lost. Ends with one JSON line.
// The server requires per-role credentials (as an embedded run's does; --open: none): each host connects each role
// as its own user, the coordinator declares the topology, the checker reads as `reader`, and every refusal the
// hosts log is counted (`refused`, target 0).
// The suite runs a short variant (test/loop/chaos-loses-nothing-and-applies-nothing-twice.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../runtime/config.js';
import { openConnection, type Connection } from '../runtime/connection.js';
import { repoPath } from '../runtime/paths.js';
import { READER } from '../runtime/permissions.js';
import { BUCKETS, RUN_KEYS, STREAMS, durableName } from '../runtime/subjects.js';
import { mulberry32 } from '../test/helpers/random.js';
import { setArgs, TINY_RUN } from '../test/helpers/tiny-run.js';
import { checkTrajectories, type TrajectoryCheck } from './chaos-check.js';
import { refusalsIn, soakAuth } from './soak-auth.js';
import { awaitJetStream, awaitReplicasCurrent, startSoakServers } from './soak-servers.js';

export const CHAOS_ROLES = ['coordinator', 'designer', 'agent', 'sandbox', 'evaluator', 'learner'] as const;
type Role = (typeof CHAOS_ROLES)[number];

export interface ChaosOptions {
  minutes: number;
  seed: number;
  intervalMs: number;
  serverKills: boolean;
  /** A 3-node JetStream cluster (R3 streams) instead of one server; a server kill takes a random one of the three. */
  cluster?: boolean;
  /** A cluster: every third fault after the first (the 2nd, 5th, …) cuts every route of a random server for `linkDownMs` instead (a partition of one). */
  linkCuts?: boolean;
  /** How long a cut lasts (default 5 s). */
  linkDownMs?: number;
  /** delivery.ackWaitMs of every host (default: the config's); the end waits one ack_wait for redeliveries. */
  ackWaitMs?: number;
  /** Keep the work directory (logs, run directories, store) instead of deleting it. */
  keep?: boolean;
  /** Run the server without per-role credentials (default false: every role connects as its own user). */
  open?: boolean;
  log?: (line: string) => void;
}

export interface ChaosReport extends TrajectoryCheck {
  kills: number;
  restarts: number;
  /** Hosts that exited without being killed (then restarted); 0 is the target. */
  crashes: number;
  /** Operations the server refused a host (permissions violations in the hosts' logs); 0 is the target. */
  refused: number;
  /** The first few of those log lines. */
  refusedLines: string[];
  serverKills: number;
  /** Times one server's routes were all cut and healed (--link-cuts). */
  linkCuts: number;
  /** Servers: 1, or 3 for a cluster. */
  servers: number;
  /** A cluster: streams whose replicas were not all current a minute after the end (empty: every copy caught up). */
  behind: string[];
  /** The coordinator finished every iteration it issued, and every raw group and rejected environment was labeled. */
  completed: boolean;
  minutes: number;
  iterations: number;
  killedRoles: Record<string, number>;
  /** Stop-and-drain rounds at the end (1 unless a stopped learner left trajectories unacked; see the drain). */
  drainRounds: number;
  dir?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A sleep that does not keep the process alive (a deadline raced against an event). */
const deadline = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

class HostProc {
  child: ChildProcess | undefined;
  exited: Promise<number | null> = Promise.resolve(null);
  constructor(readonly role: Role, private readonly args: () => string[], private readonly logFile: string) {}
  /** Resolves once this start of the host says it runs its roles. */
  ready: Promise<void> = Promise.resolve();
  start(extra: string[] = []): void {
    const out = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, [repoPath('runtime/start.js'), ...this.args(), ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SPADE_NATS_URL: '' } });
    child.stdout!.pipe(out, { end: false });
    child.stderr!.pipe(out, { end: false });
    let said = '';
    this.ready = new Promise((resolve) => child.stderr!.on('data', (b: Buffer) => {
      said = (said + b.toString()).slice(-4_000);
      if (/running roles/.test(said)) resolve();
    }));
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => { out.end(); resolve(code); }));
  }
  get alive(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
  async kill(signal: NodeJS.Signals): Promise<number | null> {
    if (this.alive) this.child!.kill(signal);
    return this.exited;
  }
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const t0 = Date.now();
  const rng = mulberry32(opts.seed);
  const linkRng = mulberry32(opts.seed + 7919);
  const dir = mkdtempSync(join(tmpdir(), 'spade-chaos-'));
  mkdirSync(join(dir, 'logs'));
  // The roles and the checker's reader; no admin: the coordinator declares the topology, as on a cluster.
  const auth = opts.open ? undefined : soakAuth(dir, [...CHAOS_ROLES, READER]);
  if (opts.linkCuts && !opts.cluster) throw new RangeError('--link-cuts needs --cluster (the links are between its servers)');
  const servers = await startSoakServers(dir, opts.cluster ? 3 : 1, auth?.authorization, { links: opts.linkCuts === true });
  // Library environments (the fixed baseline's pool): every iteration has agent episodes to play, label and train on.
  const sets = ['loop.ablations.fixedEnvs=true', ...TINY_RUN, `nats.servers=${servers.urls.join(',')}`, ...(opts.cluster ? ['topology.replicas=3'] : []), 'run.maxStaleness=1', ...(opts.ackWaitMs ? [`delivery.ackWaitMs=${opts.ackWaitMs}`] : []), ...(auth?.sets ?? [])];
  const runDir = (role: Role) => join(dir, 'runs', role);
  const hosts = new Map<Role, HostProc>();
  for (const role of CHAOS_ROLES)
    hosts.set(role, new HostProc(role, () => ['--role', role, '--host-id', `chaos-${role}`, ...(role === 'coordinator' || role === 'learner' ? ['--run-dir', runDir(role)] : []), ...setArgs(sets)], join(dir, 'logs', `${role}.log`)));
  const report: ChaosReport = { kills: 0, restarts: 0, crashes: 0, refused: 0, refusedLines: [], serverKills: 0, linkCuts: 0, servers: servers.urls.length, behind: [], published: 0, applied: 0, dropped: 0, droppedBy: {}, lost: 0, duplicated: 0, completed: false, minutes: 0, iterations: 0, lostIds: [], duplicatedIds: [], unlabeledEnvs: [], killedRoles: {}, drainRounds: 0 };
  let conn: Connection | undefined;
  // Ctrl-C or SIGTERM of the soak takes its hosts and server with it (they are not in a process group of ours).
  const abort = (sig: NodeJS.Signals): void => {
    for (const h of hosts.values()) if (h.alive) h.child!.kill('SIGKILL');
    servers.killAll();
    process.stderr.write(`chaos: ${sig}: hosts and server killed; work directory ${dir}\n`);
    process.exit(130);
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    const config = await loadConfig({ env: {}, set: sets });
    conn = await openConnection(config.nats, 'spade-chaos-checker', 10_000, auth ? { role: READER } : {});
    // A cluster answers JetStream calls once it has a meta leader: the coordinator's first declare must not fail.
    await awaitJetStream(conn);
    for (const h of hosts.values()) h.start(h.role === 'coordinator' ? ['--iterations', '1000000'] : []);

    // The kill phase starts once every host is up (a slow start under load must not be killed before it did anything).
    await Promise.race([Promise.all([...hosts.values()].map((h) => h.ready)), deadline(180_000)]);
    const until = Date.now() + opts.minutes * 60_000;
    let n = 0;
    while (Date.now() + opts.intervalMs <= until) {
      // A host that exits on its own (not killed here) is a crash: counted and restarted, as a supervisor would.
      for (const tick = Date.now(); Date.now() - tick < opts.intervalMs;) {
        await sleep(Math.min(1_000, opts.intervalMs));
        for (const h of hosts.values())
          if (!h.alive) {
            log(`chaos: ${h.role} exited on its own (${h.child?.exitCode ?? h.child?.signalCode}); restarting it`);
            report.crashes++;
            h.start(h.role === 'coordinator' ? ['--iterations', '1000000'] : []);
          }
      }
      n++;
      if (opts.serverKills && n % 3 === 0) {
        // The same seed kills the same roles with one server as before clusters were added: no draw for the server.
        const i = servers.urls.length > 1 ? Math.floor(rng() * servers.urls.length) : 0;
        log(`chaos: SIGKILL nats-server ${servers.urls[i]}`);
        const name = await servers.killAndRestart(i, 1_000);
        report.serverKills++;
        log(`chaos: ${name} restarted on ${servers.urls[i]}`);
        continue;
      }
      if (opts.linkCuts && servers.isolate && n % 3 === 2) {
        // Its own generator: with or without link cuts, a seed draws its roles and servers in the same order.
        const i = Math.floor(linkRng() * servers.urls.length);
        log(`chaos: cutting every route of ${servers.urls[i]} for ${opts.linkDownMs ?? 5_000} ms`);
        const name = await servers.isolate(i, opts.linkDownMs ?? 5_000);
        report.linkCuts++;
        log(`chaos: ${name}'s routes healed`);
        continue;
      }
      const role = CHAOS_ROLES[Math.floor(rng() * CHAOS_ROLES.length)]!;
      const h = hosts.get(role)!;
      log(`chaos: SIGKILL ${role} (pid ${h.child?.pid})`);
      await h.kill('SIGKILL');
      report.kills++;
      report.killedRoles[role] = (report.killedRoles[role] ?? 0) + 1;
      h.start(role === 'coordinator' ? ['--iterations', '1000000'] : []);
      report.restarts++;
    }

    // Finish: the coordinator stops (so it issues nothing more), then comes back to end at the iterations it issued;
    // then the learner takes in everything and stops.
    const coord = hosts.get('coordinator')!;
    await coord.kill('SIGTERM');
    // Read after a server restart: the bucket answers once its stream is recovered.
    let issued = 0;
    for (let tries = 0; tries < 30 && issued === 0; tries++) {
      try {
        const entry = await (await conn.kvm.open(BUCKETS.run)).get(RUN_KEYS.nextIteration);
        issued = entry?.operation === 'PUT' ? Number(new TextDecoder().decode(entry.value)) : 0;
      } catch (err) {
        log(`chaos: reading the run's next iteration: ${(err as Error).message}`);
      }
      if (issued === 0) await sleep(1_000);
    }
    report.iterations = issued;
    log(`chaos: kills over; the coordinator finishes the ${issued} iterations it issued`);
    coord.start(['--iterations', String(Math.max(1, issued))]);
    const coordExit = await Promise.race([coord.exited, deadline(Math.max(180_000, opts.minutes * 60_000)).then(() => 'timeout' as const)]);
    log(`chaos: coordinator exited ${coordExit}`);
    if (coordExit !== 0) {
      const tail = readFileSync(join(dir, 'logs', 'coordinator.log'), 'utf8').trim().split('\n').slice(-15);
      log(`chaos: the coordinator's log ends:\n${tail.map((l) => `  ${l}`).join('\n')}`);
    }
    // Drained: nothing undelivered, twice, ack_wait apart. What a killed learner held comes back to the live one only
    // after ack_wait; the live learner holds what it has until a checkpoint, which its SIGTERM stop takes.
    const undelivered = async (): Promise<number> => (await conn!.jsm.consumers.info(STREAMS.trajectories, durableName('learner'))).num_pending;
    const waitUndelivered = async (): Promise<void> => {
      for (let waited = 0; waited < 180_000 && (await undelivered().catch(() => 1)) > 0; waited += 1_000) await sleep(1_000);
    };
    // The learner acks only what a checkpoint made final; its SIGTERM stop trains what it holds and checkpoints. A stop
    // that did not get there (on a loaded machine, a drain past its timeout) leaves its trajectories unacked in the
    // stream: not lost, the next learner applies them. So the hosts are started again and drained until the learner's
    // consumer holds nothing, at most three rounds; what is still unacked after that counts as lost below.
    const unacked = async (): Promise<number> => {
      const i = await conn!.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
      return i.num_pending + i.num_ack_pending;
    };
    for (let round = 1; ; round++) {
      await waitUndelivered();
      await sleep(config.delivery.ackWaitMs + 5_000);
      await waitUndelivered();
      for (const role of CHAOS_ROLES) if (role !== 'coordinator') {
        const code = await hosts.get(role)!.kill('SIGTERM');
        if (code !== 0) log(`chaos: ${role} exited ${code} on SIGTERM (round ${round})`);
      }
      report.drainRounds = round;
      const left = await unacked().catch(() => 0);
      if (left === 0 || round === 3) break;
      log(`chaos: ${left} trajectory batches not yet final after the stop (round ${round}); starting the hosts again to drain them`);
      for (const role of CHAOS_ROLES) if (role !== 'coordinator') hosts.get(role)!.start();
      await Promise.all(CHAOS_ROLES.filter((r) => r !== 'coordinator').map((r) => hosts.get(r)!.ready));
    }

    // A cluster: every copy of every stream caught up after the server kills.
    if (opts.cluster) report.behind = await awaitReplicasCurrent(conn, 60_000);
    // The independent check.
    Object.assign(report, await checkTrajectories(conn, join(runDir('learner'), 'learner')));
    report.completed = coordExit === 0 && issued > 0 && report.unlabeledEnvs.length === 0;
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
    for (const h of hosts.values()) await h.kill('SIGKILL');
    await conn?.close().catch(() => undefined);
    await servers.stopAll();
    const refusals = readdirSync(join(dir, 'logs')).flatMap((f) => refusalsIn(readFileSync(join(dir, 'logs', f), 'utf8')).map((l) => `${f}: ${l}`));
    report.refused = refusals.length;
    report.refusedLines = refusals.slice(0, 20);
    report.minutes = Math.round((Date.now() - t0) / 600) / 100;
    if (opts.keep) report.dir = dir;
    else rmSync(dir, { recursive: true, force: true });
  }
  return report;
}

function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(s.trim());
  if (!m) throw new RangeError(`--interval ${s}: expected a duration like 30s, 500ms or 1m`);
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1_000);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' }, interval: { type: 'string', default: '30s' }, 'server-kills': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false }, open: { type: 'boolean', default: false }, cluster: { type: 'boolean', default: false }, 'link-cuts': { type: 'boolean', default: false } } });
  const r = await runChaos({ minutes: Number(values.minutes), seed: Number(values.seed), intervalMs: parseDuration(values.interval), serverKills: values['server-kills'], keep: values.keep, open: values.open, cluster: values.cluster, linkCuts: values['link-cuts'] });
  process.stderr.write(`${JSON.stringify({ droppedBy: r.droppedBy, killedRoles: r.killedRoles, iterations: r.iterations, lostIds: r.lostIds, duplicatedIds: r.duplicatedIds, unlabeledEnvs: r.unlabeledEnvs, refusedLines: r.refusedLines, behind: r.behind, drainRounds: r.drainRounds, dir: r.dir })}\n`);
  const { kills, restarts, crashes, refused, serverKills, linkCuts, servers, published, applied, dropped, lost, duplicated, completed, minutes } = r;
  process.stdout.write(`${JSON.stringify({ kills, restarts, crashes, refused, serverKills, linkCuts, servers, behind: r.behind.length, published, applied, dropped, lost, duplicated, completed, minutes })}\n`);
  process.exitCode = lost === 0 && duplicated === 0 && crashes === 0 && refused === 0 && r.behind.length === 0 && completed ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
