// One NATS connection per host process, with the JetStream, KV and object-store clients built on it.
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import type { ClusterConfig } from './config-schema.js';
import { ConfigError, RuntimeError } from './errors.js';

export interface Connection {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  kvm: Kvm;
  objm: Objm;
  close(): Promise<void>;
}

export function connectionOptions(nats: ClusterConfig['nats'], name: string): NodeConnectionOptions {
  const opts: NodeConnectionOptions = { servers: nats.servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: false };
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

/** Connects and builds the JetStream clients. `timeoutMs` bounds the first connect. */
export async function openConnection(nats: ClusterConfig['nats'], name: string, timeoutMs = 10_000): Promise<Connection> {
  let nc: NatsConnection;
  try {
    nc = await connect({ ...connectionOptions(nats, name), timeout: timeoutMs });
  } catch (err) {
    throw new RuntimeError(`cannot connect to NATS at ${nats.servers.join(', ')}: ${(err as Error).message}${tlsHint(err, nats)}`, { code: 'NATS_CONNECT', cause: err, data: { servers: nats.servers } });
  }
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc, { timeout: timeoutMs, checkAPI: false });
  return {
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
