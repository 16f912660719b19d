// `spade start` / `node runtime/start.js`: load config, start the embedded nats-server when no
// URL is configured, declare the topology, run this host's roles, drain cleanly on SIGTERM/SIGINT.
import { existsSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { onOutputClosed } from './closed-output.js';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import type { ClusterConfig } from './config-schema.js';
import { openConnection, usesRoleCredentials, type Connection } from './connection.js';
import { authDirOf, credentialsFile, ensureCredentials } from './credentials.js';
import { UsageError } from './errors.js';
import { ActorHost } from './host.js';
import { startNatsServer, type NatsServerHandle } from './nats-server.js';
import { accessOf, ADMIN, authorizationBlock, consumersOf, ROLE_ACCESS, usedStreamsOf } from './permissions.js';
import { resolveRoles, type RoleRegistry } from './roles.js';
import { awaitTopology, declareTopology } from './topology.js';

export const START_HELP = `Usage: spade start [options]      (same as: node runtime/start.js [options])

Runs actors of the given roles on this host, joined to the cluster through NATS JetStream.

Options:
  --role ROLE[,ROLE]   roles to run (repeatable); "all" = every role      [config host.roles]
  --nats URL[,URL]     NATS servers; none = start an embedded nats-server  [SPADE_NATS_URL]
  --config FILE        a JSON file or JS module with a partial config
  --run-dir DIR        run directory (default: a new runs/<date-time>)    [SPADE_RUN_DIR]
  --resume DIR         continue the run in DIR with its saved config
  --iterations N       stop after N iterations                            [config run.iterations]
  --minutes N          stop after N minutes                               [config run.minutes]
  --budget-tokens N    stop once N policy tokens (sampled + trained) are spent [config run.budgetTokens]
  --budget-episodes N  stop once the agent has played N episodes, hinted included [config run.budgetEpisodes]
  --seed N             run seed                                           [SPADE_SEED]
  --host-id ID         this host's id in membership (default hostname-pid)
  --set PATH=VALUE     set any config field, e.g. --set roles.echo.concurrency=16 (repeatable)
  -h, --help           show this help
`;

export interface StartedHost {
  config: ClusterConfig;
  /** The connection of the host's first role (membership); with per-role credentials each role has its own (`conns`). */
  conn: Connection;
  conns: ReadonlyMap<string, Connection>;
  host: ActorHost;
  server: NatsServerHandle | undefined;
  /** Drains the host, closes the connection and stops the embedded server. */
  shutdown(): Promise<void>;
  /** Registers what to do when an actor asks the process to stop (the run is over); a request made before this is handed over at once. */
  onShutdownRequest(fn: (reason: string) => void): void;
}

/** Parses start flags into config sources. Throws UsageError on unknown flags. */
export function parseStartArgs(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        role: { type: 'string', multiple: true },
        nats: { type: 'string' },
        config: { type: 'string' },
        'run-dir': { type: 'string' },
        resume: { type: 'string' },
        iterations: { type: 'string' },
        minutes: { type: 'string' },
        'budget-tokens': { type: 'string' },
        'budget-episodes': { type: 'string' },
        seed: { type: 'string' },
        'host-id': { type: 'string' },
        set: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${START_HELP}`);
  }
  const v = parsed.values;
  const set = [...(v.set ?? [])];
  if (v.role) set.push(`host.roles=${v.role.join(',')}`);
  if (v.nats) set.push(`nats.servers=${v.nats}`);
  if (v['run-dir']) set.push(`run.dir=${JSON.stringify(v['run-dir'])}`);
  if (v.seed) set.push(`run.seed=${v.seed}`);
  if (v.iterations) set.push(`run.iterations=${v.iterations}`);
  if (v.minutes) set.push(`run.minutes=${v.minutes}`);
  if (v['budget-tokens']) set.push(`run.budgetTokens=${v['budget-tokens']}`);
  if (v['budget-episodes']) set.push(`run.budgetEpisodes=${v['budget-episodes']}`);
  let file = v.config;
  let savedRun = false;
  if (v.resume) {
    if (v['run-dir']) throw new UsageError('--resume DIR already names the run directory; drop --run-dir');
    const saved = resolve(v.resume, 'config.json');
    if (!existsSync(saved)) throw new UsageError(`--resume ${v.resume}: no run there (missing ${saved})`);
    if (!file) {
      file = saved;
      savedRun = true;
    }
    set.push(`run.dir=${JSON.stringify(v.resume)}`);
  }
  if (v['host-id']) set.push(`host.id=${JSON.stringify(v['host-id'])}`);
  return { help: v.help === true, file, set, savedRun };
}

/** Starts a host running the roles of `registry` that the config asks for (the application's composition root hands it in). */
export async function startHost(argv: string[], registry: RoleRegistry, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<StartedHost | undefined> {
  const args = parseStartArgs(argv);
  if (args.help) {
    process.stdout.write(START_HELP);
    return undefined;
  }
  const config = await loadConfig({ file: args.file, set: args.set, savedRun: args.savedRun });
  const roles = resolveRoles(config.host.roles, registry);
  // Only hosts that keep run state get a run directory: the embedded server, the coordinator, the learner.
  if (config.nats.servers.length === 0 || roles.includes('coordinator') || roles.includes('learner')) {
    if (config.run.dir === '') {
      config.run.dir = join('runs', new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15));
      pointLatest(config.run.dir);
    }
    mkdirSync(resolve(config.run.dir), { recursive: true });
    // The resolved config, so `--resume` continues with exactly these settings.
    writeFileSync(resolve(config.run.dir, 'config.json'), `${JSON.stringify({ ...config, nats: { ...config.nats, pass: undefined, token: undefined } }, null, 2)}\n`);
  }
  const hostId = config.host.id ?? `${hostname().replace(/[^A-Za-z0-9_-]/g, '-')}-${process.pid}`;
  const embedded = config.nats.servers.length === 0;
  // Per-role credentials: the embedded server makes them under <run-dir>/auth (kept on resume); any host of a run
  // whose directory holds them, or that names nats.credsDir, connects each role as its own user.
  if (config.nats.credsDir === undefined && config.run.dir !== '' && (existsSync(authDirOf(resolve(config.run.dir))) || (embedded && config.nats.embedded.auth !== false)))
    config.nats.credsDir = authDirOf(resolve(config.run.dir));
  let server: NatsServerHandle | undefined;
  if (embedded) {
    const storeDir = resolve(config.run.dir, 'nats');
    let authorization: string | undefined;
    if (config.nats.embedded.auth !== false && config.nats.credsDir !== undefined) {
      // Every role of the registry and of the matrix, so that hosts of other roles can join this run.
      authorization = authorizationBlock(ensureCredentials(config.nats.credsDir, [...new Set([...Object.keys(registry), ...Object.keys(ROLE_ACCESS)])]));
      log(`per-role NATS credentials in ${config.nats.credsDir} (docs/security.md)`);
    }
    log(`starting embedded nats-server (store ${storeDir}) …`);
    server = await startNatsServer({ storeDir, port: config.nats.embedded.port, bin: config.nats.embedded.bin, ...(authorization ? { authorization } : {}) });
    config.nats.servers = [server.url];
    mkdirSync(resolve(config.run.dir), { recursive: true });
    writeFileSync(resolve(config.run.dir, 'nats.url'), `${server.url}\n`);
    log(`embedded nats-server listening on ${server.url} (written to ${resolve(config.run.dir, 'nats.url')})`);
  }
  const conns = new Map<string, Connection>();
  let conn: Connection | undefined;
  const closeAll = async () => {
    for (const c of new Set([...conns.values(), ...(conn ? [conn] : [])])) await c.close().catch(() => undefined);
  };
  try {
    if (usesRoleCredentials(config.nats)) {
      const onPermissionError = (err: Error) => log(`permission denied: ${err.message}`);
      for (const role of roles) conns.set(role, await openConnection(config.nats, `spade-${hostId}-${role}`, 10_000, { role, onPermissionError }));
      conn = conns.get(roles[0]!)!;
      // The topology is declared by a user allowed to: the run's admin (whose credentials the embedded server's host
      // holds) or the coordinator; a host with neither waits until it exists.
      const manager = credentialsFile(config.nats.credsDir!, ADMIN) ? ADMIN : roles.find((r) => accessOf(r).manage);
      // Each role waits for the part it uses, looked at as itself (a role may look only at the streams it uses).
      if (manager === undefined) for (const role of roles) await awaitTopology(conns.get(role)!, log, 1_000, { streams: usedStreamsOf(role), consumers: consumersOf(role) });
      else {
        const m = manager === ADMIN ? await openConnection(config.nats, `spade-${hostId}-${ADMIN}`, 10_000, { role: ADMIN }) : conns.get(manager)!;
        log(`declaring streams, consumers, buckets (as ${manager}) …`);
        try {
          await declareTopology(m, config, log);
        } finally {
          if (manager === ADMIN) await m.close();
        }
      }
    } else {
      conn = await openConnection(config.nats, `spade-${hostId}`);
      for (const role of roles) conns.set(role, conn);
      log('declaring streams, consumers, buckets …');
      await declareTopology(conn, config, log);
    }
    // A request can come before the caller registers its handler (a coordinator whose run another host finished
    // while this one was still starting actors): keep it and hand it over on registration, never drop it.
    let onShutdown: ((reason: string) => void) | null = null;
    let pendingShutdown: string | null = null;
    const host = new ActorHost({
      conn, config, hostId, log, connFor: (role) => conns.get(role)!,
      onShutdownRequest: (reason) => (onShutdown ? onShutdown(reason) : (pendingShutdown ??= reason)),
    });
    await host.start(roles.map((r) => registry[r]!), roles);
    log(`host ${hostId} running roles [${roles.join(', ')}] on ${config.nats.servers.join(', ')}`);
    const c = conn;
    return {
      config,
      conn: c,
      conns,
      host,
      server,
      onShutdownRequest(fn: (reason: string) => void) {
        onShutdown = fn;
        if (pendingShutdown !== null) fn(pendingShutdown);
      },
      async shutdown() {
        await host.stop();
        await closeAll();
        await server?.stop();
        if (server) rmSync(resolve(config.run.dir, 'nats.url'), { force: true });
      },
    };
  } catch (err) {
    await closeAll();
    await server?.stop();
    throw err;
  }
}

/** Runs until SIGTERM/SIGINT (or its output is closed), then drains and exits 0; a second signal exits at once. */
export async function runStartCommand(argv: string[], registry: RoleRegistry): Promise<number> {
  const started = await startHost(argv, registry);
  if (!started) return 0;
  await new Promise<void>((resolveSignal) => {
    let stopping = false;
    const onSignal = (sig: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`${sig} again: exiting without drain\n`);
        process.exit(1);
      }
      stopping = true;
      process.stderr.write(`${sig}: draining (up to ${started.config.host.drainTimeoutMs} ms) …\n`);
      resolveSignal();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    // `spade start … | head` and the reader went away: drain as on SIGTERM (log lines to a closed pipe are dropped).
    onOutputClosed(() => {
      if (stopping) return;
      stopping = true;
      process.stderr.write('output closed: draining …\n');
      resolveSignal();
    });
    started.onShutdownRequest((reason) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${reason}: stopping …\n`);
      resolveSignal();
    });
  });
  await started.shutdown();
  const st = started.host.stats;
  process.stderr.write(`stopped cleanly (handled=${st.handled} failed=${st.failed} dead-lettered=${st.deadLettered} naked=${st.naked})\n`);
  return 0;
}

/** Keeps runs/latest pointing at the newest run directory (for `spade status` / `tail` defaults). */
function pointLatest(dir: string): void {
  const link = join('runs', 'latest');
  try {
    mkdirSync('runs', { recursive: true });
    try {
      unlinkSync(link);
    } catch {
      // no previous link
    }
    symlinkSync(resolve(dir), link);
  } catch {
    // A read-only or odd file system only loses the convenience link.
  }
}
