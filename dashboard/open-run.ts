// Reaching a run's bus for the dashboard and the report: --nats URL, else the run directory's nats.url while its
// embedded server lives, else — a finished embedded run — a nats-server of our own over the run's JetStream store,
// stopped on close. Without any of these the caller falls back to the run directory's files.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clientConfig } from '../runtime/client-args.js';
import { openConnection, type Connection } from '../runtime/connection.js';
import { authDirOf, ensureCredentials } from '../runtime/credentials.js';
import { authorizationBlock, READER } from '../runtime/permissions.js';
import { startNatsServer, type NatsServerHandle } from '../runtime/nats-server.js';

export interface OpenedRun {
  conn: Connection;
  /** Where the data comes from, for the page's header. */
  source: string;
  /** True while the run's own server is up (its figures can still change). */
  live: boolean;
  close(): Promise<void>;
}

/** Connects to the run's bus, or returns null when there is none to reach. */
export async function openRun(opts: { nats?: string; runDir?: string; replayStore?: boolean }): Promise<OpenedRun | null> {
  const runDir = opts.runDir ? resolve(opts.runDir) : undefined;
  if (opts.nats || (runDir && existsSync(join(runDir, 'nats.url')))) {
    const url = opts.nats ?? readFileSync(join(runDir!, 'nats.url'), 'utf8').trim();
    try {
      // The run's own server: its credentials (<run-dir>/auth) as the read-only reader.
      const config = await clientConfig(opts.nats ? { nats: url } : { nats: url, runDir: runDir! });
      const conn = await openConnection(config.nats, 'spade-dashboard', opts.nats ? 10_000 : 2_000, { role: READER });
      // openConnection does not wait for the first connect; a dead embedded server shows on the first request.
      await conn.jsm.getAccountInfo();
      return { conn, source: opts.nats ? url : `${runDir} (${url})`, live: true, close: () => conn.close() };
    } catch (err) {
      if (opts.nats) throw err;
    }
  }
  const store = runDir ? join(runDir, 'nats') : undefined;
  if (!store || opts.replayStore === false || !existsSync(join(store, 'jetstream'))) return null;
  // The run's own server is gone: serve its store read-only from a private server on a free loopback port.
  let server: NatsServerHandle | undefined;
  try {
    // A run with credentials keeps them on its replay too: only the run's users reach its streams, the page as reader.
    const auth = authDirOf(runDir!);
    const authorization = existsSync(auth) ? authorizationBlock(ensureCredentials(auth, [READER])) : undefined;
    server = await startNatsServer({ storeDir: store, port: 0, logFile: join(store, 'dashboard-nats-server.log'), ...(authorization ? { authorization } : {}) });
    const config = await clientConfig({ nats: server.url, runDir: runDir! });
    const conn = await openConnection(config.nats, 'spade-dashboard', 10_000, { role: READER });
    const srv = server;
    return { conn, source: `${runDir} (finished; its stored streams)`, live: false, close: async () => (await conn.close(), await srv.stop()) };
  } catch (err) {
    await server?.stop();
    throw err;
  }
}
