// bucketKeys lists a KV bucket's keys from its stream's subject list: every key with an entry (dotted keys whole,
// keys whose latest entry is a delete marker included, for the caller to skip), 1,200 keys, none for an empty
// bucket, and a typed JetStream error, not a wait, for a bucket that does not exist. listMembers and the memory
// store's sync read through it. A real nats-server.
import t from 'tap';
import { JetStreamApiError } from '@nats-io/jetstream';
import { bucketKeys } from '../../runtime/bucket-keys.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';

t.test('bucketKeys lists every key of a bucket in one request', async (t) => {
  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const kv = await conn.kvm.create('keys-probe', { history: 2 });
  t.same(await bucketKeys(conn.jsm, 'keys-probe'), [], 'an empty bucket has no keys');

  await kv.put('b', 'x');
  await kv.put('a', 'y');
  await kv.put('a', 'z'); // two revisions, one key
  await kv.put('host.one.two', 'dotted');
  await kv.put('gone', 'soon');
  await kv.delete('gone');
  t.same(await bucketKeys(conn.jsm, 'keys-probe'), ['a', 'b', 'gone', 'host.one.two'], 'sorted, dotted keys whole, a deleted key listed once');
  t.equal((await kv.get('gone'))?.operation, 'DEL', 'the caller tells a deleted key by its entry');

  const many = Array.from({ length: 1_200 }, (_, i) => `k${String(i).padStart(4, '0')}`);
  const big = await conn.kvm.create('keys-many');
  for (const k of many) await big.put(k, '1');
  t.same(await bucketKeys(conn.jsm, 'keys-many'), many, `all ${many.length} keys`);

  const started = Date.now();
  const err = await bucketKeys(conn.jsm, 'no-such-bucket').then(() => null, (e: unknown) => e);
  t.ok(err instanceof JetStreamApiError, `a missing bucket is a JetStream error (${String(err)})`);
  t.ok(Date.now() - started < 5_000, 'answered, not waited out');
});
