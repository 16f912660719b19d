// The designer's logic against the real sandbox: a library-quality module is accepted (env.accepted + rollout.job,
// memory entry written, designer sample kept), broken ones are rejected with their failing stage, msgIds depend
// only on the job, ablations drop the document or the memory, and fixedEnvs publishes a seeded library environment.
// The policy here is a stand-in that only chooses the completion text; the real sampler is tested in test/actors/policy.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { design, envIdOf, type DesignerDeps } from '../../../actors/designer/design.js';
import { loadLibraryEnvs } from '../../../actors/designer/library-envs.js';
import { newMemoryEntry, withEvaluation, type MemoryEntry } from '../../../actors/memory/memory-entry.js';
import type { Policy } from '../../../actors/policy/policy-service.js';
import type { AcceptedEnv, Sample } from '../../../actors/messages.js';
import { packFloats, packInts, unpackInts } from '../../../actors/packed.js';
import { loadTokenizer } from '../../../model/tokenizer.js';
import { repoPath } from '../../../runtime/paths.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../policy/tiny-loop.js';

const GOOD = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');
const NO_DEFAULT = 'export const spec = { name: "x", description: "d", hint: "h", maxTurns: 4 };\n';
const tok = loadTokenizer('bpe-2048');

/** Returns `text` as the completion of whatever prompt it gets; remembers the prompts. */
function scripted(text: string, contextLength = 2048): Policy & { prompts: number[][] } {
  const prompts: number[][] = [];
  return {
    tokenizer: tok, contextLength, prompts,
    async sample(prompt): Promise<Sample> {
      prompts.push(prompt);
      const ids = [...tok.encode(text), tok.specialId('<|end_turn|>')];
      return { promptTokens: packInts(prompt), tokens: packInts(ids), logprobs: packFloats(ids.map(() => -1)), versions: packInts(ids.map(() => 2)), text, finishReason: 'stop' };
    },
  };
}

function memory(entries: MemoryEntry[]) {
  const added: MemoryEntry[] = [];
  return { added, entries: () => entries, add: async (e: MemoryEntry) => (added.push(e), true) };
}

const known = [
  withEvaluation(newMemoryEntry({ envId: 'env-a', name: 'nim', description: 'Win Nim against a perfect opponent by taking stones.', family: 'games', codeHash: 'x', parents: [], iteration: 0, source: 'library' }), { regret: 0.5, returnHint: 0.9, returnNoHint: 0.4 }),
  newMemoryEntry({ envId: 'env-b', name: 'adder', description: 'Reach the target exactly by adding numbers one per turn.', family: 'reasoning', codeHash: 'y', parents: [], iteration: 0, source: 'designer' }),
];
const doc = { id: 'doc-7#0', text: 'Arithmetic is the branch of mathematics that studies numbers and operations on them.', source: 'wiki', kind: 'encyclopedic' };

t.test('designer verdicts', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const options = tinyLoop({ k: 3 });
  const deps = (text: string, mem = memory(known), over: Partial<DesignerDeps> = {}): DesignerDeps & { policy: ReturnType<typeof scripted> } =>
    ({ policy: scripted(text), sandbox: pool, options, corpus: () => doc, memory: mem, ...over }) as DesignerDeps & { policy: ReturnType<typeof scripted> };

  const mem = memory(known);
  const d = deps(`\`\`\`js\n${GOOD}\`\`\``, mem);
  const r = await design({ jobId: 'job-1', iteration: 2, seed: 5 }, d);
  t.ok(r.accepted, 'the library module is accepted');
  t.same(r.outputs.map((o) => [o.subject, o.msgId]), [[SUBJECTS.envAccepted, 'env:env-job-1'], [SUBJECTS.jobRollout, 'rollout:env-job-1']]);
  const env = r.outputs[0]!.body as AcceptedEnv;
  t.equal(env.code, GOOD.trim(), 'the module is taken out of its code fence');
  t.equal(env.spec.name, 'sum-to-target');
  t.equal(env.family, 'reasoning', 'family guessed from the closest parent');
  t.same(env.doc, { id: doc.id, source: 'wiki', kind: 'encyclopedic' });
  t.same([...env.parents].sort(), ['env-a', 'env-b']);
  t.ok(env.validation.oracleMean! >= 0.5, 'validation figures kept');
  t.same([...unpackInts(env.designer!.versions)].slice(0, 1), [2], 'the designer sample travels with the env');
  t.same(r.outputs[1]!.body, { env, k: 3, seedBase: 5 });
  t.equal(mem.added.length, 1);
  t.match(mem.added[0], { envId: 'env-job-1', name: 'sum-to-target', evaluated: false, regret: 0, family: 'reasoning', docId: doc.id, source: 'designer' });
  const promptText = tok.decode(d.policy.prompts[0]!);
  t.match(promptText, /Arithmetic is the branch/, 'the document is in the prompt');
  t.match(promptText, /nim \(games\) regret 0\.50/, 'memory lines are in the prompt');

  const again = await design({ jobId: 'job-1', iteration: 2, seed: 5 }, deps(GOOD));
  t.same(again.outputs.map((o) => o.msgId), r.outputs.map((o) => o.msgId), 'a retried job republishes the same msgIds');

  await t.rejects(design({ jobId: 'job-1', iteration: 2, seed: 5 }, deps(GOOD), AbortSignal.abort()), 'a cancelled job publishes nothing: it throws for the host to retry');

  const bad = await design({ jobId: 'job-2', iteration: 2, seed: 6 }, deps(NO_DEFAULT));
  t.equal(bad.accepted, null);
  t.equal(bad.outputs.length, 1);
  t.match(bad.outputs[0], { subject: SUBJECTS.envRejected, msgId: `env:${envIdOf('job-2')}`, body: { stage: 'contract', code: NO_DEFAULT.trim() } });
  t.ok((bad.outputs[0]!.body as { reason: string }).reason.length > 0, 'a reason is given');
  t.ok((bad.outputs[0]!.body as { designer: Sample }).designer.tokens.length > 0, 'rejections keep the designer sample');

  const syntax = await design({ jobId: 'job-3', iteration: 2, seed: 7 }, deps('export const spec = {'));
  t.match(syntax.outputs[0]!.body, { stage: 'parse' });
  const empty = await design({ jobId: 'job-4', iteration: 2, seed: 8 }, deps('   '));
  t.match(empty.outputs[0]!.body, { stage: 'parse', reason: /no module/ });
});

t.test('ablations and the fixed-environment baseline', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const plain = scripted(NO_DEFAULT);
  const r = await design({ jobId: 'j', iteration: 0, seed: 1 }, {
    policy: plain, sandbox: pool, corpus: () => doc, memory: memory(known), options: tinyLoop({ ablations: { noCorpus: true, noMemory: true } }),
  });
  const body = r.outputs[0]!.body as { doc?: unknown; parents: string[] };
  t.equal(body.doc, undefined, 'noCorpus: no document');
  t.same(body.parents, [], 'noMemory: no parents');
  t.notMatch(tok.decode(plain.prompts[0]!), /Arithmetic|nim/, 'neither is in the prompt');

  const small = scripted(NO_DEFAULT, 160);
  const fit = await design({ jobId: 'k', iteration: 0, seed: 1 }, { policy: small, sandbox: pool, corpus: () => doc, memory: memory(known), options: tinyLoop({ designer: { maxTokens: 60 } }) });
  t.ok(small.prompts[0]!.length <= 100, `a small context drops memory lines first (${small.prompts[0]!.length} prompt tokens)`);
  t.ok((fit.outputs[0]!.body as { parents: string[] }).parents.length < 2, 'parents are only the entries shown');

  const library = loadLibraryEnvs();
  t.equal(library.length, 30);
  const mem = memory([]);
  const fixed = { policy: scripted('unused'), sandbox: pool, corpus: null, memory: mem, library, options: tinyLoop({ ablations: { fixedEnvs: true } }) };
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
