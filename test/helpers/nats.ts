// Test helpers: a real nats-server per test file (free port, own store dir), cleaned up on teardown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startNatsServer, type NatsServerHandle } from '../../runtime/nats-server.js';
import { loadConfig, type ClusterConfig } from '../../runtime/config.js';
import { openConnection, type Connection } from '../../runtime/connection.js';
import { ensureTopology } from '../../runtime/topology.js';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export function tempDir(t: Teardown, prefix = 'spade-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function natsServer(t: Teardown, opts: { dir?: string; name?: string; cluster?: { name: string; port?: number; routes?: string[] } } = {}): Promise<NatsServerHandle> {
  const dir = opts.dir ?? tempDir(t, 'spade-nats-');
  const server = await startNatsServer({ storeDir: join(dir, opts.name ?? 'nats'), serverName: opts.name, cluster: opts.cluster });
  t.teardown(() => server.kill());
  return server;
}

/** Config overrides that make redelivery fast enough for tests. */
export const FAST_DELIVERY = ['delivery.ackWaitMs=1500', 'delivery.backoffMs=[100,200]', 'delivery.maxDeliver=3', 'host.heartbeatMs=300', 'host.memberTtlMs=2000', 'host.drainTimeoutMs=5000'];

export async function testConfig(servers: string[], set: string[] = []): Promise<ClusterConfig> {
  return loadConfig({ env: {}, set: [`nats.servers=${servers.join(',')}`, ...FAST_DELIVERY, ...set] });
}

export async function connected(t: Teardown, config: ClusterConfig, topology = true): Promise<Connection> {
  const conn = await openConnection(config.nats, 'spade-test');
  t.teardown(() => conn.close());
  if (topology) await ensureTopology(conn, config);
  return conn;
}

/** A currently free loopback port (for cluster routes, which must be known before the servers start). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
