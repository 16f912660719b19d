// The designer's logic against the real sandbox: a library-quality module is accepted (env.accepted + rollout.job,
// memory entry written, designer sample kept), broken ones are rejected with their failing stage, and msgIds depend
// only on the job.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { design, envIdOf, type DesignerDeps } from '../../../actors/designer/design.js';
import type { AcceptedEnv, Sample } from '../../../actors/loop/messages.js';
import { unpackInts } from '../../../actors/loop/packed.js';
import { repoPath } from '../../../runtime/paths.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { SandboxPool } from '../../../sandbox/index.js';
import { tinyLoop } from '../loop/policy/tiny-loop.js';
import { tok, scripted, memory, known, doc } from './scripted-designer.js';

const GOOD = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');

const NO_DEFAULT = 'export const spec = { name: "x", description: "d", hint: "h", maxTurns: 4 };\n';

t.test('designer verdicts', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
  t.teardown(() => pool.close());
  const options = tinyLoop({ k: 3 });
  const deps = (text: string, mem = memory(known), over: Partial<DesignerDeps> = {}): DesignerDeps & { policy: ReturnType<typeof scripted> } =>
    ({ policy: scripted(text), sandbox: pool, options, corpus: () => doc, memory: mem, outcomes: null, ...over }) as DesignerDeps & { policy: ReturnType<typeof scripted> };

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
