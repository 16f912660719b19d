// The chaos soak's link cuts (scripts/soak-links.ts) on a real 3-node cluster: with every route of n3 cut, a client of
// n3 cannot store a message in an R3 stream (n3 alone has no quorum) while a client of n1 can (n1 and n2 have), and
// once the links are healed n3's client stores again. So every route does go through the proxies (none found a direct
// path by gossip).
import t from 'tap';
import { openConnection, type Connection } from '../../runtime/connection.js';
import { awaitJetStream, startSoakServers } from '../../scripts/soak-servers.js';
import { tempDir, testConfig } from '../helpers/nats.js';

/** Whether a publish to the R3 stream is stored through `conn` within `ms` (tried every 500 ms). */
async function stores(conn: Connection, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (await conn.js.publish('cut.x', new Uint8Array([1]), { timeout: 1_500 }).then(() => true, () => false)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

t.test('cutting a server\'s links leaves it without JetStream until they heal', async (t) => {
  const servers = await startSoakServers(tempDir(t), 3, undefined, { links: true });
  t.teardown(() => servers.stopAll());
  const connect = async (url: string): Promise<Connection> => {
    const c = await openConnection((await testConfig([url])).nats, 'spade-test', 2_000);
    t.teardown(() => c.close());
    return c;
  };
  const [n1, n3] = [await connect(servers.urls[0]!), await connect(servers.urls[2]!)];
  await awaitJetStream(n1);
  // A new cluster can still refuse an R3 stream for a moment (no meta leader or peers yet): try again for up to 30 s.
  for (let i = 0; ; i++) {
    try {
      await n1.jsm.streams.add({ name: 'CUT', subjects: ['cut.>'], num_replicas: 3 });
      break;
    } catch (err) {
      if (i >= 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  t.ok(await stores(n3, 20_000), 'n3 stores while its links are up');

  const healed = servers.isolate!(2, 15_000);
  await new Promise((r) => setTimeout(r, 3_000)); // the cut is seen by all three at once (sockets closed)
  t.notOk(await stores(n3, 4_000), 'with its routes cut, n3 stores nothing');
  t.ok(await stores(n1, 8_000), 'n1 (with n2) still stores');
  await healed;
  t.ok(await stores(n3, 30_000), 'once healed, n3 stores again');
});
