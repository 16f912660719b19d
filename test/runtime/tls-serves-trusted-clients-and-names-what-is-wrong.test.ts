// nats.tls end to end with certificates the test makes: a server that requires TLS and client certificates serves a
// host whose config names the CA and its client certificate (a job goes through the echo actor); a client trusting
// the wrong CA, one without a client certificate and one without TLS settings are refused, each with an error that
// names the config field to change.
import t from 'tap';
import { join } from 'node:path';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { loadConfig } from '../../runtime/config.js';
import { openConnection } from '../../runtime/connection.js';
import { ActorHost } from '../../runtime/host.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { ensureTopology } from '../../runtime/topology.js';
import { collectResults, publishJobs } from '../helpers/results.js';
import { FAST_DELIVERY, tempDir } from '../helpers/nats.js';
import { makeTestCerts } from '../helpers/tls-certs.js';

t.test('TLS serves clients with the right CA and certificate and refuses the others naming the field', async (t) => {
  const dir = tempDir(t, 'spade-tls-');
  const c = makeTestCerts(dir);
  const server = await startNatsServer({ storeDir: join(dir, 'nats'), tls: { certFile: c.serverCert, keyFile: c.serverKey, caFile: c.ca, verify: true } });
  t.teardown(() => server.kill());
  const configWith = (tls: Record<string, string> | null) =>
    loadConfig({ env: {}, set: [`nats.servers=${server.url}`, ...FAST_DELIVERY, ...(tls ? [`nats.tls=${JSON.stringify(tls)}`] : [])] });

  const config = await configWith({ caFile: c.ca, certFile: c.clientCert, keyFile: c.clientKey });
  const conn = await openConnection(config.nats, 'spade-tls-test');
  t.teardown(() => conn.close());
  t.ok(conn.nc.info?.tls_required, 'the server requires TLS');
  await ensureTopology(conn, config);
  const host = new ActorHost({ conn, config, hostId: 'tls-host', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());
  await publishJobs(conn, ['over-tls']);
  t.equal((await collectResults(conn, 1))[0]!.id, 'over-tls', 'a job went through a host over TLS');

  const refused: Array<[string, Record<string, string> | null, RegExp]> = [
    ['a client trusting the wrong CA', { caFile: c.wrongCa, certFile: c.clientCert, keyFile: c.clientKey }, /not signed by the CA in nats\.tls\.caFile, .*wrong-ca\.pem/],
    ['a client without a client certificate', { caFile: c.ca }, /set nats\.tls\.certFile and nats\.tls\.keyFile/],
    ['a client without TLS settings', null, /set nats\.tls\.caFile to the CA that signed it/],
  ];
  for (const [who, tls, message] of refused) {
    const err = await openConnection((await configWith(tls)).nats, 'spade-tls-refused', 3_000).then((bad) => bad.close().then(() => null), (e: unknown) => e);
    t.ok(err, `${who} is refused`);
    t.match((err as { code?: string })?.code, 'NATS_CONNECT', `${who}: a typed connect error`);
    t.match((err as Error)?.message, message, `${who}: ${(err as Error)?.message}`);
  }
});
