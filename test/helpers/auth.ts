// Test helpers: a real nats-server that requires per-role credentials (runtime/permissions.ts), and connections as one role.
import { join } from 'node:path';
import { startNatsServer, type NatsServerHandle } from '../../runtime/nats-server.js';
import { asPermissionError, openConnection, type Connection } from '../../runtime/connection.js';
import { ensureCredentials } from '../../runtime/credentials.js';
import type { ClusterConfig } from '../../runtime/config.js';
import { isPermissionError, type PermissionError } from '../../runtime/errors.js';
import { authorizationBlock, ROLE_ACCESS } from '../../runtime/permissions.js';
import { tempDir, testConfig, type Teardown } from './nats.js';

export interface AuthServer {
  server: NatsServerHandle;
  /** Where every role's credentials file is. */
  credsDir: string;
  /** A test config that connects each role with its own credentials. */
  config: ClusterConfig;
}

/** A server whose users are the matrix's roles (nkeys), each with its permissions. */
export async function authServer(t: Teardown, roles: readonly string[] = Object.keys(ROLE_ACCESS), set: string[] = []): Promise<AuthServer> {
  const dir = tempDir(t, 'spade-auth-');
  const credsDir = join(dir, 'auth');
  const server = await startNatsServer({ storeDir: join(dir, 'nats'), authorization: authorizationBlock(ensureCredentials(credsDir, roles)) });
  t.teardown(() => server.kill());
  return { server, credsDir, config: await testConfig([server.url], [`nats.credsDir=${JSON.stringify(credsDir)}`, ...set]) };
}

/** A connection as `role`; every refusal the server reports on it is pushed to `refused`. */
export async function connectAs(t: Teardown, config: ClusterConfig, role: string, refused: PermissionError[] = []): Promise<Connection> {
  const conn = await openConnection(config.nats, `spade-test-${role}`, 10_000, { role, onPermissionError: (e) => refused.push(e) });
  t.teardown(() => conn.close());
  return conn;
}

/** What `fn`'s failure names when typed for `role` ({ role, subject, code, message }), or { notRefused } when it was not refused. */
export async function refusal(role: string, fn: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await fn();
    return { notRefused: true };
  } catch (err) {
    const e = asPermissionError(err, role);
    return isPermissionError(e) ? { role: e.role, subject: e.subject, code: e.code, message: e.message } : { notRefused: String(e) };
  }
}
