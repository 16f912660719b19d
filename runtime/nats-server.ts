// Starts and stops a real `nats-server` child process with JetStream: the embedded default of
// `spade start` and the server every test starts for itself (free loopback ports, own store dir).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { NatsServerError } from './errors.js';

export const INSTALL_HINT =
  'install it with `sudo apt-get install -y nats-server` (Debian/Ubuntu), or download a release from ' +
  'https://github.com/nats-io/nats-server/releases, or point NATS_SERVER_BIN at the binary';

export interface NatsServerOptions {
  /** JetStream store directory (created if missing). */
  storeDir: string;
  /** Client port; 0 = let the server pick a free one. */
  port?: number;
  /** Binary; default: $NATS_SERVER_BIN, then PATH, then /usr/sbin and /usr/local/bin. */
  bin?: string;
  serverName?: string;
  /** Join a cluster: route listen port (0 = free) and seed routes. */
  cluster?: { name: string; port?: number; routes?: string[]; /** The route URL told to other servers (gossip); default the listen URL. */ advertise?: string };
  /** Append the server's log here (default: <storeDir>/nats-server.log). */
  logFile?: string;
  /** Give up waiting for "Server is ready" after this long. */
  startTimeoutMs?: number;
  /** Largest message; trajectory groups of long multi-turn episodes outgrow NATS's 1 MB default. */
  maxPayloadBytes?: number;
  /** Serve clients over TLS only: the server's certificate and key, and with `caFile` + `verify` require client certificates it signed. */
  tls?: { certFile: string; keyFile: string; caFile?: string; verify?: boolean };
  /** Require credentials: an `authorization { users = [...] }` block (runtime/permissions.ts authorizationBlock). */
  authorization?: string;
}

/** The server config file's text: settings with no command-line flag. */
function serverConf(opts: NatsServerOptions): string {
  const lines = [`max_payload: ${opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES}`];
  if (opts.tls) {
    const t = opts.tls;
    lines.push('tls {', `  cert_file: ${JSON.stringify(t.certFile)}`, `  key_file: ${JSON.stringify(t.keyFile)}`);
    if (t.caFile) lines.push(`  ca_file: ${JSON.stringify(t.caFile)}`);
    if (t.verify) lines.push('  verify: true');
    lines.push('}');
  }
  if (opts.authorization) lines.push(opts.authorization.trimEnd());
  return `${lines.join('\n')}\n`;
}

export const DEFAULT_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

export interface NatsServerHandle {
  readonly url: string;
  readonly port: number;
  readonly clusterUrl: string | undefined;
  readonly pid: number;
  readonly process: ChildProcess;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (simulates a crashed server) and wait for exit. */
  kill(): Promise<void>;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds the nats-server binary or throws NatsServerError with install instructions. */
export function findNatsServer(bin?: string): string {
  const explicit = bin ?? process.env.NATS_SERVER_BIN;
  if (explicit) {
    if (executable(explicit)) return explicit;
    throw new NatsServerError(`nats-server not found at ${explicit}: ${INSTALL_HINT}`, { bin: explicit });
  }
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];
  for (const d of dirs) {
    if (d && executable(join(d, 'nats-server'))) return join(d, 'nats-server');
  }
  throw new NatsServerError(`nats-server is not installed (not on PATH): ${INSTALL_HINT}`, {});
}

/** Starts nats-server with JetStream on loopback and resolves once it accepts clients. */
export function startNatsServer(opts: NatsServerOptions): Promise<NatsServerHandle> {
  const bin = findNatsServer(opts.bin);
  mkdirSync(opts.storeDir, { recursive: true });
  // Settings with no command-line flag go into a small config file; flags below override it.
  const confFile = join(opts.storeDir, 'nats-server.conf');
  // It may hold the users' passwords: owner only.
  writeFileSync(confFile, serverConf(opts), { mode: 0o600 });
  chmodSync(confFile, 0o600);
  const args = ['-c', confFile, '-a', '127.0.0.1', '-p', String(opts.port && opts.port > 0 ? opts.port : -1), '-js', '-sd', opts.storeDir];
  if (opts.serverName) args.push('--server_name', opts.serverName);
  if (opts.cluster) {
    args.push('--cluster_name', opts.cluster.name, '--cluster', `nats://127.0.0.1:${opts.cluster.port && opts.cluster.port > 0 ? opts.cluster.port : -1}`);
    if (opts.cluster.routes?.length) args.push('--routes', opts.cluster.routes.join(','));
    if (opts.cluster.advertise) args.push('--cluster_advertise', opts.cluster.advertise);
  }
  const log = createWriteStream(opts.logFile ?? join(opts.storeDir, 'nats-server.log'), { flags: 'a' });
  // Its own process group: a terminal's Ctrl-C reaches the host, which drains over NATS and then stops the
  // server itself; in the host's group the server would die first and the drain would have nothing to talk to.
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const timeoutMs = opts.startTimeoutMs ?? 15_000;

  return new Promise((resolve, reject) => {
    let port = 0;
    let clusterUrl: string | undefined;
    let tail = '';
    let settled = false;
    // 'close', not 'exit': the server's stderr can still deliver output after the process has exited (a loaded
    // machine, or a child process of the server holding the pipe), and the log is ended only once the pipe is.
    const exited = new Promise<void>((res) => child.once('close', () => res()));
    const timer = setTimeout(() => finish(new NatsServerError(`nats-server did not become ready in ${timeoutMs} ms; log tail:\n${tail}`, { args })), timeoutMs);

    const handle = (): NatsServerHandle => ({
      url: `nats://127.0.0.1:${port}`,
      port,
      clusterUrl,
      pid: child.pid!,
      process: child,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
        log.end();
      },
      async kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
        log.end();
      },
    });

    function finish(err?: Error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        child.kill('SIGKILL');
        reject(err);
      } else resolve(handle());
    }

    child.once('error', (err) => finish(new NatsServerError(`cannot run ${bin}: ${err.message}`, { bin }, err)));
    child.once('exit', (code, signal) => {
      if (!settled) finish(new NatsServerError(`nats-server exited during start (code ${code}, signal ${signal}); log tail:\n${tail}`, { args }));
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (!log.writableEnded) log.write(chunk);
      if (settled) return;
      tail = (tail + chunk).slice(-4000);
      const m = /Listening for client connections on [^\s]*:(\d+)/.exec(tail);
      if (m) port = Number(m[1]);
      const c = /Listening for route connections on [^\s]*:(\d+)/.exec(tail);
      if (c) clusterUrl = `nats://127.0.0.1:${c[1]}`;
      if (/Server is ready/.test(tail) && port > 0) finish();
    });
  });
}
