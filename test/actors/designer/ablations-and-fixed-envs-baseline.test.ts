// The designer's ablations drop the document or the memory from its prompt, and fixedEnvs publishes a seeded library
// environment instead of designing one.
import t from 'tap';
import { design } from '../../../actors/designer/design.js';
import { loadLibraryEnvs } from '../../../actors/designer/library-envs.js';
import type { AcceptedEnv } from '../../../actors/loop/messages.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { tok, scripted, memory, known, doc } from './scripted-designer.js';

const NO_DEFAULT = 'export const spec = { name: "x", description: "d", hint: "h", maxTurns: 4 };\n';

t.test('ablations and the fixed-environment baseline', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const plain = scripted(NO_DEFAULT);
  const r = await design({ jobId: 'j', iteration: 0, seed: 1 }, {
    policy: plain, sandbox: pool, corpus: () => doc, memory: memory(known), outcomes: null, options: tinyLoop({ ablations: { noCorpus: true, noMemory: true } }),
  });
  const body = r.outputs[0]!.body as { doc?: unknown; parents: string[] };
  t.equal(body.doc, undefined, 'noCorpus: no document');
  t.same(body.parents, [], 'noMemory: no parents');
  t.notMatch(tok.decode(plain.prompts[0]!), /Arithmetic|nim/, 'neither is in the prompt');

  const small = scripted(NO_DEFAULT, 160);
  const fit = await design({ jobId: 'k', iteration: 0, seed: 1 }, { policy: small, sandbox: pool, corpus: () => doc, memory: memory(known), outcomes: null, options: tinyLoop({ designer: { maxTokens: 60 } }) });
  t.ok(small.prompts[0]!.length <= 100, `a small context drops memory lines first (${small.prompts[0]!.length} prompt tokens)`);
  t.ok((fit.outputs[0]!.body as { parents: string[] }).parents.length < 2, 'parents are only the entries shown');

  const library = loadLibraryEnvs();
  t.equal(library.length, 35);
  const mem = memory([]);
  const fixed = { policy: scripted('unused'), sandbox: pool, corpus: null, memory: mem, outcomes: null, library, options: tinyLoop({ ablations: { fixedEnvs: true } }) };
  const a = await design({ jobId: 'f1', iteration: 0, seed: 42 }, fixed);
  const b = await design({ jobId: 'f1', iteration: 0, seed: 42 }, fixed);
  const env = a.outputs[0]!.body as AcceptedEnv;
  t.equal(env.designer, undefined, 'no designer sample in the baseline');
  t.same(b.outputs, a.outputs, 'seeded: the same job picks the same environment');
  t.ok(['reasoning', 'tools', 'games'].includes(env.family));
  t.equal(fixed.policy.prompts.length, 0, 'the policy is not asked');
  t.match(mem.added[0], { source: 'library', envId: 'env-f1' });
  const names = new Set<string>();
  for (let seed = 0; seed < 8; seed++) names.add(((await design({ jobId: `f${seed}`, iteration: 0, seed }, fixed)).outputs[0]!.body as AcceptedEnv).spec.name);
  t.ok(names.size >= 4, `different seeds pick different environments (${names.size} of 8)`);
});
