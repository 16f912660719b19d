// The warm start with a Hugging Face directory as --init trains that model, end to end: its shape and weights, its
// own tokenizer and chat template for the designer's and the agent's rows; the loss falls; the checkpoint it saves
// loads with the model's tokenizer and carries its config.json, so an export writes that config.json back.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { exportModel, loadModel } from '../../model/index.js';
import { warmStart } from '../../warmstart/index.js';
import { hfFixtureCopy } from '../helpers/hf-fixture.js';
import { tempDir } from '../helpers/nats.js';

// Data preparation replays library episodes in the sandbox: minutes on a loaded machine.
t.setTimeout(900_000);

t.test('a warm start from a Hugging Face directory trains it and saves a checkpoint of it', async (t) => {
  // The fixture's 32 positions hold no row; its weights do not depend on the context length.
  const init = await hfFixtureCopy(t, 'qwen2-f32-tied', { contextLength: 8192 });
  const source = await loadModel(init);
  const out = join(tempDir(t, 'warm-start-hf-'), 'ckpt');
  const lines: string[] = [];
  const s = await warmStart({
    initCheckpoint: init, steps: 6, batchTokens: 8192, lr: 1e-2, minLr: 1e-3, warmupSteps: 1, agentFraction: 0.5,
    // A small slice of the data: one seed per env, one validated child of each short parent (the fixture's tokenizer
    // spells code about a character a token, so the parents are capped in its tokens).
    episodesPerEnv: 1, hintEnvEpisodes: 1, editsPerParent: 1, secondEdits: 0, editValidationSeeds: 2, maxModuleTokens: 1400, agentMaxPromptTokens: 512,
    documents: 'stand-in', outDir: out, saveEvery: 0, logEvery: 1, minutes: 0, planBy: 'steps',
  }, (l) => lines.push(l));
  t.same(s.config, source.model, 'the model trained is the imported one (its shape, vocab 48)');
  t.equal(s.steps, 6);
  t.ok(s.edits.examples >= 1, `${s.edits.examples} designer edit examples`);
  const d = s.curve.filter((p) => p.designer !== null).map((p) => p.designer!);
  const a = s.curve.filter((p) => p.agent !== null).map((p) => p.agent!);
  t.ok(d.length >= 2 && a.length >= 2, 'both roles trained');
  t.ok(d.at(-1)! < d[0]!, `designer loss falls: ${d[0]!.toFixed(2)} -> ${d.at(-1)!.toFixed(2)}`);
  t.ok(a.at(-1)! < a[0]!, `agent loss falls: ${a[0]!.toFixed(2)} -> ${a.at(-1)!.toFixed(2)}`);
  t.ok(lines.some((l) => l.includes(`weights from ${init}`)), 'it says where the weights came from');

  const ck = await loadModel(out);
  t.equal(ck.format, 'spade');
  t.equal(ck.tokenizer?.kind, 'hf', 'the checkpoint carries the model\'s own tokenizer');
  t.ok(ck.tokenizer?.encodeChat !== undefined, 'with its chat template');
  t.equal(ck.step, 6);
  t.same(ck.hfConfig, source.hfConfig, 'and its config.json');
  t.ok([...ck.params].some(([n, p]) => p.some((x, i) => x !== source.params.get(n)![i])), 'trained weights differ from the imported ones');

  const exported = join(tempDir(t, 'warm-start-hf-export-'), 'out');
  await exportModel(ck, exported);
  t.same(JSON.parse(await readFile(join(exported, 'config.json'), 'utf8')), source.hfConfig, 'the export writes the imported config.json back');
  const back = await loadModel(exported);
  t.same([...back.params].filter(([n, p]) => !Buffer.from(p.buffer, p.byteOffset, p.byteLength).equals(Buffer.from(ck.params.get(n)!.buffer, ck.params.get(n)!.byteOffset, ck.params.get(n)!.byteLength))).map(([n]) => n), [], 'bit-identical tensors');
});
