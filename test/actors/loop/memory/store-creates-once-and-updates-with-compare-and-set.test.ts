// The memory store over a real KV bucket: the designer's add() keeps the first entry of an envId, concurrent
// evaluator updates all land (compare-and-set), the evaluator can create a missing entry, and another store's
// sync() sees all of it.
import t from 'tap';
import { MemoryStore } from '../../../../actors/loop/memory/memory-store.js';
import { memoryKey, newMemoryEntry } from '../../../../actors/loop/memory/memory-entry.js';
import { connected, natsServer, testConfig } from '../../../helpers/nats.js';

t.test('add, concurrent updates, watch', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const a = await MemoryStore.open(conn);
  const b = await MemoryStore.open(conn);
  t.teardown(async () => (await a.close(), await b.close()));

  const e = newMemoryEntry({ envId: 'env-job:1', name: 'sum-to-target', description: 'd', family: 'reasoning', codeHash: 'abc', parents: [], iteration: 0, source: 'designer' });
  t.equal(await a.add(e), true);
  t.equal(await a.add({ ...e, name: 'second-try' }), false, 'a retried job does not replace the entry');
  t.equal((await a.get('env-job:1'))!.entry.name, 'sum-to-target');
  t.match(memoryKey('env-job:1'), /^[-_=A-Za-z0-9]+$/, 'ids with other characters map to valid keys');

  await Promise.all(Array.from({ length: 6 }, (_, i) => a.recordEvaluation('env-job:1', { regret: i / 10, returnHint: 0.8, returnNoHint: 0.8 - i / 10 })));
  const after = (await a.get('env-job:1'))!.entry;
  t.equal(after.evaluations, 6, 'all six concurrent evaluations counted');
  t.equal(after.evaluated, true);

  t.equal(await a.recordEvaluation('env-nobody', { regret: 0.1, returnHint: 0.2, returnNoHint: 0.1 }), null, 'no entry, no fallback: nothing written');
  const made = await a.recordEvaluation('env-late', { regret: 0.3, returnHint: 0.5, returnNoHint: 0.2 }, { ...e, envId: 'env-late', codeHash: 'def' }) // other code: a duplicate of 'abc' would not be created;
  t.equal(made!.evaluations, 1, 'the evaluator creates an entry the designer has not written yet');

  const synced = await b.sync();
  t.same(synced.map((x) => x.envId).sort(), ['env-job:1', 'env-late']);
  t.equal(b.entries().find((x) => x.envId === 'env-job:1')!.evaluations, 6);
});
