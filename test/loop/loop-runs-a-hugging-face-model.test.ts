// The loop runs a Hugging Face model directory as loop.policy.checkpoint: one host process over a real nats-server
// plays, trains and publishes with it (its own tokenizer and chat template), and the learner's checkpoint reloads
// with the model's tokenizer, and (checkpointFormat=hf) as a Hugging Face directory with the imported config.json.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TrajectoryGroup } from '../../actors/loop/messages.js';
import { unpackInts } from '../../actors/loop/packed.js';
import { readAccounting } from '../../actors/learner/accounting.js';
import { loadModel } from '../../model/load-model.js';
import { STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { repoPath } from '../../runtime/paths.js';
import { spawnHost } from '../helpers/host-process.js';
import { hfFixtureCopy } from '../helpers/hf-fixture.js';
import { connected, natsServer, tempDir, testConfig } from '../helpers/nats.js';
import { readAll } from '../helpers/streams.js';

const ITERATIONS = 2;

t.test('a short run on a Hugging Face directory', { timeout: 400_000 }, async (t) => {
  const model = await hfFixtureCopy(t, 'qwen2-f32-tied', { contextLength: 256 });
  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const runDir = tempDir(t, 'spade-hf-loop-');
  const set = [
    'loop.ablations.fixedEnvs=true', // a random model writes no valid environment; the library stands in
    `loop.library=${JSON.stringify(repoPath('test/fixtures/loop-library'))}`,
    `loop.policy.checkpoint=${JSON.stringify(model)}`,
    'loop.policy.missingCheckpoint="fail"',
    'loop.k=2',
    'loop.agent.maxTurns=2',
    'loop.agent.maxTokens=6',
    'loop.agent.maxPromptTokens=200',
    'loop.learner.checkpoints.format="hf"',
    'run.designsPerIteration=2',
    'run.view="off"',
    'roles.sandbox.threads=1',
  ].flatMap((s) => ['--set', s]);
  const host = spawnHost(t, ['--nats', server.url, '--run-dir', runDir, '--iterations', String(ITERATIONS), '--host-id', 'main', '--role', 'all', ...set]);
  const exit = await host.exited;
  t.equal(exit.code, 0, `the run stops by itself after ${ITERATIONS} iterations`);
  t.match(host.output(), /chat prompts/, 'the policy says it builds chat prompts');

  // The agent's prompts are the template's rendering, its samples stop at <|im_end|> or the length.
  const groups = await readAll(conn, STREAMS.trajectories, SUBJECTS.trajRaw, TrajectoryGroup);
  t.ok(groups.length >= 1, `${groups.length} trajectory groups`);
  const m = await loadModel(model);
  const first = groups[0]!.episodes[0]!.turns[0]!;
  const ids = [...unpackInts(first.promptTokens)], open = m.codec!.encode('<|im_start|>system\n'), gen = m.codec!.encode('<|im_start|>assistant\n');
  t.same(ids.slice(0, open.length), open, 'a ChatML prompt: it opens with the system turn');
  t.same(ids.slice(-gen.length), gen, 'and ends where the assistant speaks');
  for (const s of groups.flatMap((g) => g.episodes.flatMap((e) => e.turns))) {
    const tokens = [...unpackInts(s.tokens)];
    t.ok(tokens.every((id) => id < 48), 'ids of the model\'s vocab');
    if (s.finishReason === 'stop') t.equal(tokens.at(-1), 2);
  }

  // The learner trained on them, and its checkpoint reloads with the model's own tokenizer.
  const stateDir = join(runDir, 'learner');
  const updates = (await readAccounting(stateDir)).filter((l) => l.kind === 'update');
  t.ok(updates.length >= 1, `${updates.length} learner updates`);
  const latest = (await readFile(join(stateDir, 'LATEST'), 'utf8')).trim();
  const ck = await loadModel(join(stateDir, latest, 'model'));
  t.equal(ck.tokenizer?.kind, 'hf', 'the learner checkpoint carries the Hugging Face tokenizer');
  t.same(ck.model, m.model, 'the same architecture');
  t.ok(ck.policyVersion >= 1, `policy version ${ck.policyVersion}`);
  t.ok([...ck.params].some(([name, p]) => p.some((x, i) => x !== m.params.get(name)![i])), 'trained weights differ from the imported ones');
  t.same(ck.codec!.encode('the sea'), m.codec!.encode('the sea'), 'the same tokenization');
  const hf = await loadModel(join(stateDir, latest, 'hf'));
  t.equal(hf.format, 'hf', 'checkpointFormat=hf exports a Hugging Face directory');
  t.ok(hf.tokenizerFiles?.includes('tokenizer_config.json'), 'with the model\'s tokenizer files');
  t.same(hf.hfConfig, JSON.parse(await readFile(join(model, 'config.json'), 'utf8')), 'and the imported config.json as it came');
  for (const [name, p] of ck.params) t.same(hf.params.get(name), p, `${name}: export is exact`);
});
