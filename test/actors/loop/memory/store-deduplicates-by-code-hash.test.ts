// The memory holds each module once: add() of an entry whose code hash the store's view already holds under
// another envId writes nothing; a second store sees the first's entry after sync() and refuses it too; remove()
// deletes an entry (the evaluator's, for copies), after which the code may be added again. Real KV bucket.
import t from 'tap';
import { MemoryStore } from '../../../../actors/loop/memory/memory-store.js';
import { newMemoryEntry } from '../../../../actors/loop/memory/memory-entry.js';
import { connected, natsServer, testConfig } from '../../../helpers/nats.js';

const entry = (envId: string, codeHash: string) =>
  newMemoryEntry({ envId, name: envId, description: 'd', family: 'reasoning', codeHash, parents: [], iteration: 0, source: 'designer' });

t.test('dedup by code hash', async (t) => {
  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const a = await MemoryStore.open(conn);
  const b = await MemoryStore.open(conn);
  t.teardown(async () => (await a.close(), await b.close()));

  t.equal(await a.add(entry('env-1', 'hash-x')), true);
  t.equal(await a.add(entry('env-2', 'hash-x')), false, 'same code, another envId: not written');
  t.equal(await a.get('env-2'), null);
  t.equal(await a.add(entry('env-3', 'hash-y')), true, 'other code is written');
  t.equal(a.byCodeHash('hash-x')?.envId, 'env-1');

  await b.sync();
  t.equal(await b.add(entry('env-4', 'hash-x')), false, 'another store refuses it once its view holds the hash');
  t.same((await b.sync()).map((e) => e.envId), ['env-1', 'env-3']);

  await a.remove('env-1');
  t.equal(await a.get('env-1'), null, 'removed');
  t.equal(a.byCodeHash('hash-x'), undefined);
  t.equal(await a.add(entry('env-2', 'hash-x')), true, 'after the removal the code can be added again');
  t.same((await b.sync()).map((e) => e.envId), ['env-2', 'env-3']);
  await a.remove('env-missing');
  t.pass('removing an absent entry is fine');
});
