// The warm-start script path on a tiny model: data from the library and oracle episodes, a few AdamW steps on both
// roles lower the loss, and the saved checkpoint loads with the tokenizer's vocab.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCheckpoint, parameterShapes } from '../../model/index.js';
import { warmStart } from '../../warmstart/index.js';

t.test('a few steps on a tiny model reduce the loss and save a loadable checkpoint', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warm-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'ckpt');
  const s = await warmStart({
    model: { layers: 1, width: 32, heads: 2, kvHeads: 1, contextLength: 2560 }, steps: 14, batchTokens: 2560, lr: 1e-2, minLr: 1e-3,
    warmupSteps: 2, agentFraction: 0.25, episodesPerEnv: 1, hintEnvEpisodes: 4, editsPerParent: 2, documents: 'stand-in', outDir: out, saveEvery: 0, logEvery: 1, minutes: 0, planBy: 'steps',
  }, () => {});
  t.equal(s.steps, 14);
  const d = s.curve.filter((p) => p.designer !== null).map((p) => p.designer!);
  const a = s.curve.filter((p) => p.agent !== null).map((p) => p.agent!);
  t.ok(a.length >= 2, 'agent steps happened');
  const head = (d[0]! + d[1]!) / 2, tail = (d.at(-1)! + d.at(-2)!) / 2;
  t.ok(tail < head - 0.5, `designer loss falls: ${head.toFixed(2)} -> ${tail.toFixed(2)}`);
  t.ok(a.at(-1)! < a[0]!, `agent loss falls: ${a[0]!.toFixed(2)} -> ${a.at(-1)!.toFixed(2)}`);
  const ck = await loadCheckpoint(out, { shapes: parameterShapes(s.config) });
  t.equal(ck.config.model['vocab'], ck.tokenizer.vocabSize);
  t.equal(ck.config.step, 14);
});
