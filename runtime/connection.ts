// One NATS connection per host process, with the JetStream, KV and object-store clients built on it.
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, errors as natsErrors, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import type { ClusterConfig } from './config-schema.js';
import { readCredentials, type RoleCredentials } from './credentials.js';
import { AuthError, ConfigError, PermissionError, RuntimeError } from './errors.js';
import { NATS_SUBJECTS } from './subjects.js';

export interface Connection {
  /** The role whose credentials this connection uses (undefined: the config's own user, token or creds file, or none). */
  role?: string;
  /** The credentials file it connected with, if per-role. */
  credentialsPath?: string;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  kvm: Kvm;
  objm: Objm;
  close(): Promise<void>;
}

/** The connection options also need per-role credentials: `nats.credsDir` and no user, token or creds file of the config's own. */
export function usesRoleCredentials(nats: ClusterConfig['nats']): boolean {
  return nats.credsDir !== undefined && nats.user === undefined && nats.token === undefined && nats.credsFile === undefined;
}

/** The credentials `role` connects with, or undefined when the config names none per role. Throws AuthError naming the file. */
export function roleCredentials(nats: ClusterConfig['nats'], role: string | undefined): RoleCredentials | undefined {
  if (role === undefined || !usesRoleCredentials(nats)) return undefined;
  return readCredentials(nats.credsDir!, role);
}

export function connectionOptions(nats: ClusterConfig['nats'], name: string, creds?: RoleCredentials): NodeConnectionOptions {
  const opts: NodeConnectionOptions = { servers: nats.servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: false };
  if (creds) {
    opts.authenticator = creds.authenticator;
    // Replies to this role come to its own inbox prefix, the only one its user may subscribe to (permissions.ts).
    opts.inboxPrefix = NATS_SUBJECTS.inboxPrefix(creds.role);
  }
  if (nats.user !== undefined) Object.assign(opts, { user: nats.user, pass: nats.pass ?? '' });
  if (nats.token !== undefined) opts.token = nats.token;
  if (nats.credsFile !== undefined) {
    try {
      opts.authenticator = credsAuthenticator(readFileSync(nats.credsFile));
    } catch (err) {
      throw new ConfigError('nats.credsFile', `config.nats.credsFile: cannot read ${nats.credsFile} (${(err as Error).message})`, err);
    }
  }
  if (nats.tls) {
    const tls: Record<string, string> = {};
    if (nats.tls.caFile) tls.caFile = nats.tls.caFile;
    if (nats.tls.certFile) tls.certFile = nats.tls.certFile;
    if (nats.tls.keyFile) tls.keyFile = nats.tls.keyFile;
    opts.tls = tls;
  }
  return opts;
}

/** Node's codes for a server certificate the client does not trust. */
const UNTRUSTED = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_SIGNATURE_FAILURE']);

/** What to change when a connect failed over TLS: the config field, not only the TLS library's words. */
function tlsHint(err: unknown, nats: ClusterConfig['nats']): string {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNTRUSTED.has(code))
    return nats.tls?.caFile
      ? ` (TLS: the server's certificate is not signed by the CA in nats.tls.caFile, ${nats.tls.caFile})`
      : " (TLS: the server's certificate is not signed by a CA this host trusts; set nats.tls.caFile to the CA that signed it)";
  if (typeof code === 'string' && code.startsWith('ERR_TLS_CERT_ALTNAME')) return ' (TLS: the server certificate is not issued for this host name or address)';
  if (nats.tls && !nats.tls.certFile && /timeout/i.test(String((err as Error).message)))
    return ' (a server that requires client certificates closes the connection: set nats.tls.certFile and nats.tls.keyFile)';
  return '';
}

export interface OpenOptions {
  /** Connect as this role: its credentials from `nats.credsDir` (when the config names no user of its own). */
  role?: string;
  /** Told of each operation the server refused this connection (a permissions violation), as a PermissionError. */
  onPermissionError?: (err: PermissionError) => void;
}

/** A refused connect: what was presented and what to change. */
function authError(err: unknown, nats: ClusterConfig['nats'], creds: RoleCredentials | undefined): AuthError {
  const at = nats.servers.join(', ');
  const what = creds
    ? `role ${creds.role}'s credentials (${creds.path})`
    : nats.user !== undefined || nats.token !== undefined || nats.credsFile !== undefined
      ? 'the credentials in nats.user / nats.token / nats.credsFile'
      : 'a connection without credentials';
  const hint = creds
    ? 'they belong to another server or run'
    : 'the server requires credentials: set nats.credsDir (per-role files, as `spade auth init` writes them; an embedded run keeps them in <run-dir>/auth), or nats.credsFile / nats.user';
  return new AuthError(`NATS at ${at} refused ${what} (${(err as Error).message}): ${hint}`, { servers: nats.servers, ...(creds ? { path: creds.path, role: creds.role } : {}) }, err);
}

/** Connects and builds the JetStream clients. `timeoutMs` bounds the first connect. */
export async function openConnection(nats: ClusterConfig['nats'], name: string, timeoutMs = 10_000, o: OpenOptions = {}): Promise<Connection> {
  const creds = roleCredentials(nats, o.role);
  let nc: NatsConnection;
  try {
    nc = await connect({ ...connectionOptions(nats, name, creds), timeout: timeoutMs });
  } catch (err) {
    if (err instanceof natsErrors.AuthorizationError) throw authError(err, nats, creds);
    throw new RuntimeError(`cannot connect to NATS at ${nats.servers.join(', ')}: ${(err as Error).message}${tlsHint(err, nats)}`, { code: 'NATS_CONNECT', cause: err, data: { servers: nats.servers } });
  }
  if (o.onPermissionError) void watchPermissions(nc, o.role ?? name, o.onPermissionError);
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc, { timeout: timeoutMs, checkAPI: false });
  return {
    ...(o.role !== undefined ? { role: o.role } : {}),
    ...(creds ? { credentialsPath: creds.path } : {}),
    nc,
    js,
    jsm,
    kvm: new Kvm(js),
    objm: new Objm(js),
    async close() {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

/** The server's refusals reach a client only as asynchronous errors (a core publish has no answer): pass them on typed. */
async function watchPermissions(nc: NatsConnection, role: string, fn: (err: PermissionError) => void): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === 'error' && s.error instanceof natsErrors.PermissionViolationError) fn(new PermissionError(role, s.error.operation, s.error.subject, s.error));
  }
}

/** The server's refusal inside `err` (nats.js wraps a refused request in a RequestError whose cause it is), if any. */
function refusalIn(err: unknown): InstanceType<typeof natsErrors.PermissionViolationError> | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof natsErrors.PermissionViolationError) return e;
  return undefined;
}

/** A client call that failed because the server refused it, as a PermissionError naming the role; any other error unchanged. */
export function asPermissionError(err: unknown, role: string): unknown {
  const r = refusalIn(err);
  return r ? new PermissionError(role, r.operation, r.subject, err) : err;
}
