// Export round trip: an imported Llama and Qwen2 fixture trained one AdamW step, and the shipped SPADE checkpoint,
// written by exportModel as Hugging Face directories, load back with bit-identical tensors, the same config and
// identical log-probs; the files carry Hugging Face names, config fields and the tokenizer files.
import t from 'tap';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdamW } from '../../../model/optimizer.js';
import { exportModel, loadModel, type LoadedModel } from '../../../model/load-model.js';
import { decodeSafetensors } from '../../../model/safetensors.js';
import { ModelSession } from '../../../model/session.js';
import { repoPath } from '../../../runtime/paths.js';
import { EXPECTED, fixtureDir } from './fixtures.js';

const sameBits = (a: Float32Array, b: Float32Array): boolean => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

async function logprobs(m: LoadedModel, params: Map<string, Float32Array>, ids: number[]): Promise<Float32Array> {
  const s = await ModelSession.create(m.model, { graphs: ['score'] });
  const T = ids.length;
  const r = await s.score({ tokens: BigInt64Array.from(ids.map(BigInt)), batch: 1, time: T, mask: new Float32Array(T - 1).fill(1) }, params);
  await s.release();
  return r.logp as Float32Array;
}

t.test('export -> import round-trips tensors bit-identically', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'spade-hf-export-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const ids = EXPECTED.tokens, T = ids.length;
  for (const name of ['llama-bf16-tied-sharded', 'qwen2-f32-tied']) {
    const m = await loadModel(fixtureDir(name));
    // One training step: the gradient of the mean NLL, applied by AdamW.
    const s = await ModelSession.create(m.model, { graphs: ['train'] });
    const mask = new Float32Array(T - 1).fill(1), dlogp = new Float32Array(T - 1).fill(-1 / (T - 1));
    const tokens = BigInt64Array.from(ids.map(BigInt));
    const before = await s.train({ tokens, batch: 1, time: T, mask, dlogp }, m.params);
    const params = new Map([...m.params].map(([n, a]) => [n, Float32Array.from(a)]));
    new AdamW().update(params, before.grads as Map<string, Float32Array>);
    const after = await s.train({ tokens, batch: 1, time: T, mask, dlogp }, params);
    await s.release();
    t.ok(after.loss < before.loss, `${name}: one step lowers the loss (${before.loss.toFixed(4)} -> ${after.loss.toFixed(4)})`);

    const out = join(dir, name);
    await exportModel(m, out, params);
    const files = (await readdir(out)).sort();
    t.same(files, ['config.json', 'model.safetensors', ...(m.tokenizerFiles ?? [])].sort(), `${name}: exported files`);
    const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    t.equal(config.model_type, m.hfConfig!.model_type, `${name}: model_type kept`);
    t.equal(config.eos_token_id, m.hfConfig!.eos_token_id, `${name}: other config fields kept`);
    const st = decodeSafetensors(await readFile(join(out, 'model.safetensors')));
    t.ok(st.tensors.has('model.layers.0.self_attn.q_proj.weight') && !st.tensors.has('lm_head.weight'), `${name}: Hugging Face names, tied head not stored`);

    const back = await loadModel(out);
    t.same(back.model, m.model, `${name}: same decoder config`);
    t.same([...back.params.keys()].sort(), [...params.keys()].sort());
    const differing = [...params].filter(([n, a]) => !sameBits(a, back.params.get(n)!)).map(([n]) => n);
    t.same(differing, [], `${name}: every tensor bit-identical after export and import`);
    t.same([...(await logprobs(back, back.params, ids))], [...(await logprobs(m, params, ids))], `${name}: identical log-probs`);
  }

  // The project's own checkpoint goes out as a tied Llama.
  const base = await loadModel(repoPath('model/checkpoints/base'));
  const out = join(dir, 'base');
  await exportModel(base, out);
  const back = await loadModel(out);
  t.equal(back.hfConfig!.model_type, 'llama');
  t.equal(back.hfConfig!.tie_word_embeddings, true);
  t.same([...base.params].filter(([n, a]) => !sameBits(a, back.params.get(n)!)).map(([n]) => n), [], 'base: every tensor bit-identical');
  const text = base.tokenizer!.encode('Reach the target exactly.');
  t.same([...(await logprobs(back, back.params, text))], [...(await logprobs(base, base.params, text))], 'base: identical log-probs');
});
