// The memory holds each designed module once: add() of a designed entry whose code hash the store's view already
// holds under another envId writes nothing (library entries of the fixed baseline are exempt); a second store sees the first's entry after sync() and refuses it too; remove()
// deletes an entry (the evaluator's, for copies), after which the code may be added again; the evaluator's fallback
// does not create an entry whose code hash another one holds. Real KV bucket.
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
  // The evaluator's fallback creates a missing entry, but not one whose code the memory already holds.
  const c = await MemoryStore.open(conn);
  t.teardown(() => c.close());
  t.equal(await c.recordEvaluation('env-5', { regret: 0.1, returnHint: 0.2, returnNoHint: 0.1 }, entry('env-5', 'hash-y')), null, 'a duplicate is not created');
  t.equal(await c.get('env-5'), null);
  t.equal((await c.recordEvaluation('env-6', { regret: 0.1, returnHint: 0.2, returnNoHint: 0.1 }, entry('env-6', 'hash-z')))?.evaluated, true, 'new code is');
  // Library entries (the fixed-environment baseline plays a module again on purpose) are not deduplicated.
  const lib = (envId: string) => ({ ...entry(envId, 'hash-lib'), source: 'library' as const });
  t.equal(await a.add(lib('lib-1')), true);
  t.equal(await a.add(lib('lib-2')), true, 'the same library module played again keeps its own entry');
  t.ok(await c.recordEvaluation('lib-3', { regret: 0, returnHint: 0, returnNoHint: 0 }, lib('lib-3')), 'and the evaluator may create one');
  await a.remove('env-missing');
  t.pass('removing an absent entry is fine');
});
