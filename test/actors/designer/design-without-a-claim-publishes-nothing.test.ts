// A design job whose outcome cannot be claimed publishes and remembers nothing: it throws DesignOutcomeError (not a
// permanent error, so the host naks and retries it). Over a real nats-server: a malformed record under the job's key,
// and a bucket that is gone (as when the KV is unreachable).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { design, envIdOf, type DesignerDeps } from '../../../actors/designer/design.js';
import { OutcomeStore } from '../../../actors/designer/outcome-store.js';
import { isDesignOutcomeError } from '../../../actors/loop/errors.js';
import { memoryKey } from '../../../actors/loop/memory/memory-entry.js';
import { isPermanentError } from '../../../runtime/errors.js';
import { repoPath } from '../../../runtime/paths.js';
import { BUCKETS } from '../../../runtime/subjects.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { doc, memory, scripted } from './scripted-designer.js';

const GOOD = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');

t.test('no claim, no outputs', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const outcomes = await OutcomeStore.open(conn);
  const options = tinyLoop({ k: 2 });
  const deps = (text: string, mem = memory([])): DesignerDeps => ({ policy: scripted(text), sandbox: pool, options, corpus: () => doc, memory: mem, outcomes });

  // A malformed record under the job's key.
  await outcomes.kv.put(memoryKey(envIdOf('job-bad')), new TextEncoder().encode('not an outcome'));
  const mem = memory([]);
  const malformed = await design({ jobId: 'job-bad', iteration: 1, seed: 2 }, deps(GOOD, mem)).catch((err: unknown) => err);
  t.ok(isDesignOutcomeError(malformed), `a malformed record fails typed (${String(malformed)})`);
  t.match(malformed, { code: 'DESIGN_OUTCOME', data: { envId: envIdOf('job-bad') } }, 'the error names the environment');
  t.same(mem.added, [], 'nothing remembered');

  // The bucket is gone (as when the KV is unreachable): the job fails, to be retried, and nothing is remembered.
  await conn.jsm.streams.delete(`KV_${BUCKETS.designOutcomes}`);
  const gone = await design({ jobId: 'job-gone', iteration: 1, seed: 3 }, deps(GOOD, mem)).catch((err: unknown) => err);
  t.ok(isDesignOutcomeError(gone), `an unwritable claim fails typed (${String(gone)})`);
  t.notOk(isPermanentError(gone), 'not permanent: the host naks and retries the job');
  t.same(mem.added, [], 'nothing remembered');
});
