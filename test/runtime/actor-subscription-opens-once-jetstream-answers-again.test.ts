// An actor's stream subscription that JetStream cannot answer while the host starts (its server is down and the
// connection reconnecting: the request to create the consumer times out, as a cluster electing a stream leader after
// a server loss made a chaos-soak coordinator exit) is tried again until the server is back, then delivers from the
// start of the stream; before the fix the TimeoutError failed the host's start.
import t from 'tap';
import { join } from 'node:path';
import { openConnection } from '../../runtime/connection.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { openSubscriptions } from '../../runtime/subscriptions.js';
import { ensureTopology } from '../../runtime/topology.js';
import { tempDir, testConfig } from '../helpers/nats.js';

t.test('a stream subscription opened while JetStream does not answer opens once it does', async (t) => {
  const storeDir = join(tempDir(t), 'nats');
  let server = await startNatsServer({ storeDir });
  t.teardown(() => server.kill());
  const config = await testConfig([server.url]);
  // A short JetStream API timeout, so each try while the server is down fails within 2 s.
  const conn = await openConnection(config.nats, 'spade-test', 2_000);
  t.teardown(() => conn.close());
  await ensureTopology(conn, config);
  await conn.js.publish(SUBJECTS.envAccepted, new TextEncoder().encode('env-1'));

  await server.kill();
  const said: string[] = [];
  let firstFailure: () => void = () => undefined;
  const failed = new Promise<void>((res) => (firstFailure = res));
  const got: string[] = [];
  const opening = openSubscriptions(conn, [{ kind: 'stream', stream: STREAMS.envs, filter: SUBJECT_WILDCARDS.env, from: 'all', onMessage: (m) => void got.push(new TextDecoder().decode(m.data)) }], (l) => {
    said.push(l);
    if (/did not answer/.test(l)) firstFailure();
  }, { retryMs: 200 });
  const early = await Promise.race([failed.then(() => 'retrying'), opening.then(() => 'opened', (err: Error) => `failed: ${err.name}: ${err.message}`)]);
  t.equal(early, 'retrying', 'the first try fails and is tried again, not thrown');
  t.match(said[0], /^following spade\.env\.> on SPADE_ENVS: JetStream did not answer \(.*\); trying again every 200 ms$/, 'said once, naming the subscription');

  server = await startNatsServer({ storeDir, port: server.port });
  const subs = await opening;
  t.teardown(() => subs.close());
  for (let waited = 0; got.length === 0 && waited < 20_000; waited += 50) await new Promise((res) => setTimeout(res, 50));
  t.same(got, ['env-1'], 'it delivers from the start of the stream once the server is back');
  t.match(said.at(-1), /: open$/, 'and says it is open');
});
