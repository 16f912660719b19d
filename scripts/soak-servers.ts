// The NATS servers of the chaos soak: one JetStream server, or a 3-node JetStream cluster on loopback (R3 streams),
// each with the soak's per-role users. One of them can be SIGKILLed and started again on the same ports, name and
// store directory, as a crashed server that comes back; a cluster's catch-up is then read from the streams' replicas.
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Connection } from '../runtime/connection.js';
import { startNatsServer, type NatsServerHandle, type NatsServerOptions } from '../runtime/nats-server.js';
import { STREAM_PREFIX } from '../runtime/subjects.js';
import { startSoakLinks, UNREACHABLE_ROUTE, type SoakLinks } from './soak-links.js';

export interface SoakServers {
  /** Client URLs, one per server (what every host and client is given). */
  readonly urls: string[];
  /** SIGKILLs server `i`, waits `downMs`, starts it again the same way; returns what to call it (`nats-server n2`). */
  killAndRestart(i: number, downMs: number): Promise<string>;
  /** With links: cuts every route of server `i` for `downMs` (a partition of one), then heals them; returns what to call it. */
  isolate?(i: number, downMs: number): Promise<string>;
  /** SIGKILLs every server (an aborted soak). */
  killAll(): void;
  stopAll(): Promise<void>;
}

const CLUSTER = 'spade-chaos';

/** A currently free loopback port (cluster routes must be known before the servers start). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `count` 1: one server under `<dir>/nats`; 3: a cluster n1..n3 under `<dir>/nats-n<i>`, with `links` routed through
 * cuttable proxies (scripts/soak-links.ts).
 */
export async function startSoakServers(dir: string, count: 1 | 3, authorization?: string, o: { links?: boolean } = {}): Promise<SoakServers> {
  const auth = authorization ? { authorization } : {};
  const opts: NatsServerOptions[] = [];
  let links: SoakLinks | undefined;
  if (count === 1) opts.push({ storeDir: join(dir, 'nats'), ...auth });
  else {
    const routePorts = await Promise.all([0, 1, 2].map(() => freePort()));
    const clientPorts = await Promise.all([0, 1, 2].map(() => freePort()));
    if (o.links) links = await startSoakLinks(routePorts);
    for (let i = 0; i < 3; i++) {
      const routes = links ? links.routesOf(i) : routePorts.filter((_, j) => j !== i).map((p) => `nats://127.0.0.1:${p}`);
      opts.push({
        storeDir: join(dir, `nats-n${i + 1}`), serverName: `n${i + 1}`, port: clientPorts[i]!,
        cluster: { name: CLUSTER, port: routePorts[i]!, routes, ...(links ? { advertise: UNREACHABLE_ROUTE } : {}) },
        ...auth,
      });
    }
  }
  const servers: NatsServerHandle[] = await Promise.all(opts.map((o) => startNatsServer(o)));
  // A restart keeps the port the server first got (a single server picks a free one).
  opts.forEach((o, i) => (o.port = servers[i]!.port));
  return {
    urls: servers.map((s) => s.url),
    async killAndRestart(i, downMs) {
      await servers[i]!.kill();
      await new Promise((r) => setTimeout(r, downMs));
      servers[i] = await startNatsServer(opts[i]!);
      return opts[i]!.serverName ? `nats-server ${opts[i]!.serverName}` : 'nats-server';
    },
    ...(links ? {
      async isolate(i: number, downMs: number) {
        await links.isolate(i, downMs);
        return `nats-server ${opts[i]!.serverName}`;
      },
    } : {}),
    killAll() {
      for (const s of servers) s.process.kill('SIGKILL');
      void links?.close();
    },
    async stopAll() {
      await Promise.all(servers.map((s) => s.stop()));
      await links?.close();
    },
  };
}

/** Waits until JetStream answers API calls (a cluster has elected its meta leader): a missing stream is "not found", not "unavailable". */
export async function awaitJetStream(conn: Connection, timeoutMs = 60_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; ;) {
    const err = await conn.jsm.streams.info(`${STREAM_PREFIX}NO_SUCH_STREAM`).then(() => null, (e: Error) => e);
    if (err && /not found/i.test(err.message)) return;
    if (Date.now() > until) throw err ?? new Error('JetStream did not become available');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Waits until every replica of every SPADE stream (and KV bucket, object store) is current: after a server came
 * back, its copies caught up. Returns the streams still behind at the deadline (empty: all caught up).
 */
export async function awaitReplicasCurrent(conn: Connection, timeoutMs: number): Promise<string[]> {
  let behind: string[] = [];
  for (const until = Date.now() + timeoutMs; ;) {
    behind = [];
    for await (const si of conn.jsm.streams.list()) {
      const replicas = si.cluster?.replicas ?? [];
      const lagging = replicas.filter((r) => !r.current || r.offline);
      if (!si.cluster?.leader || lagging.length) behind.push(`${si.config.name} (${si.cluster?.leader ? lagging.map((r) => `${r.name} lag ${r.lag ?? '?'}`).join(', ') : 'no leader'})`);
    }
    if (behind.length === 0 || Date.now() > until) return behind;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
