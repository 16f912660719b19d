// `--resume RUN_DIR` starts from exactly the state the stopped run left: the learner resumes at the update count and
// policy version of its last checkpoint (as it logs), the coordinator at the next iteration, and a resume that has
// nothing left to do changes none of it: the policy version record, the designer baseline, every environment memory
// entry, the coordinator's bookkeeping (next iteration, run id, base version) and the learner's checkpoint are the
// same bytes after it as at the stop, field by field.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUCKETS, POLICY_KEYS, RUN_KEYS } from '../../runtime/subjects.js';
import { spawnHost } from '../helpers/host-process.js';
import { connected, natsServer, tempDir, testConfig, type Teardown } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const SET = [...TINY_RUN, 'run.maxStaleness=1'];
const sets = (extra: string[]): string[] => setArgs([...SET, ...extra]);

/** Every value the run keeps on its embedded server and in its learner directory, read with the run stopped. */
async function snapshot(runDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // The server must be gone before the next host starts its own on this store: a scope torn down on return.
  const cleanups: Array<() => unknown> = [];
  const t: Teardown = { teardown: (fn) => void cleanups.push(fn) };
  try {
    const server = await natsServer(t, { dir: runDir });
    const conn = await connected(t, await testConfig([server.url]), false);
    const hex = (v: Uint8Array | undefined): string => Buffer.from(v ?? new Uint8Array()).toString('hex');
    const policy = await conn.kvm.open(BUCKETS.policy);
    for (const key of [POLICY_KEYS.version, POLICY_KEYS.designerBaseline]) out[`policy/${key}`] = hex((await policy.get(key))?.value);
    const run = await conn.kvm.open(BUCKETS.run);
    for (const key of Object.values(RUN_KEYS)) out[`run/${key}`] = hex((await run.get(key))?.value);
    const memory = await conn.kvm.open(BUCKETS.envMemory);
    for await (const key of await memory.keys()) out[`memory/${key}`] = hex((await memory.get(key))?.value);
    const learner = join(runDir, 'learner');
    const latest = readFileSync(join(learner, 'LATEST'), 'utf8').trim();
    out['learner/LATEST'] = latest;
    out['learner/learner.json'] = readFileSync(join(learner, latest, 'learner.json'), 'utf8');
    out['learner/config.json'] = readFileSync(join(learner, latest, 'model', 'config.json'), 'utf8');
  } finally {
    for (const fn of cleanups.reverse()) await fn();
  }
  return out;
}

// Fixed environments leave memory entries; designed ones (all rejected by this tiny model) leave a designer baseline.
const VARIANTS = [
  { name: 'fixed environments', extra: ['loop.ablations.fixedEnvs=true'], leaves: 'memory/' },
  { name: 'designed environments', extra: ['loop.designer.maxTokens=16'], leaves: `policy/${POLICY_KEYS.designerBaseline}` },
];

interface Baseline { count: number; mean: number; recent: Array<[string, number]> }
const baselineOf = (snap: Record<string, string>): Baseline => JSON.parse(Buffer.from(snap[`policy/${POLICY_KEYS.designerBaseline}`]!, 'hex').toString()) as Baseline;

t.test('a resumed run starts from exactly the state the stopped one left', { timeout: 600_000 }, async (t) => {
  for (const v of VARIANTS) {
    await t.test(v.name, async (t) => {
      const runDir = join(tempDir(t, 'spade-resume-exact-'), 'run');
      const first = spawnHost(t, ['--run-dir', runDir, '--iterations', '2', ...sets(v.extra)], { SPADE_NATS_URL: '' });
      t.equal((await first.exited).code, 0, 'first part ends after 2 iterations');
      const atStop = await snapshot(runDir);
      t.ok(Object.keys(atStop).some((k) => k.startsWith(v.leaves) && atStop[k] !== ''), `the run left ${v.leaves}`);
      const state = JSON.parse(atStop['learner/learner.json']!) as { updates: number; version: number };

      const second = spawnHost(t, ['--resume', runDir, '--iterations', '2'], { SPADE_NATS_URL: '' });
      t.equal((await second.exited).code, 0, 'the resume has nothing left to do and ends');
      t.match(second.output(), new RegExp(`learner: resume at update ${state.updates}, policy version ${state.version}`), `the learner resumed at update ${state.updates}, version ${state.version}`);
      t.match(second.output(), /next iteration 2/, 'the coordinator at iteration 2');
      const after = await snapshot(runDir);
      t.same(Object.keys(after).sort(), Object.keys(atStop).sort(), 'the same keys');
      for (const [k, value] of Object.entries(atStop)) t.equal(after[k], value, `${k} unchanged`);
      if (!v.leaves.startsWith('policy/')) return;

      // One more iteration continues the baseline from where it stopped: its two designs come on top, none reset it.
      const third = spawnHost(t, ['--resume', runDir, '--iterations', '3'], { SPADE_NATS_URL: '' });
      t.equal((await third.exited).code, 0, 'a third iteration runs');
      const before = baselineOf(atStop), later = baselineOf(await snapshot(runDir));
      t.equal(later.count, before.count + 2, `baseline count ${before.count} + 2 designs`);
      t.same(later.recent.slice(0, before.recent.length), before.recent, 'the advantages given before the stop are kept');
    });
  }
});
