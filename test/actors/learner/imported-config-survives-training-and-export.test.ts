// An imported model's config.json survives the learner: initialised from a Hugging Face directory, trained one update,
// checkpointed (checkpointFormat hf), resumed and checkpointed again, then exported with `spade model export`, the
// config.json that comes out is the one that went in, field for field (rope_scaling, head_dim, token ids, tying, q/k
// norms, attention_bias), the dtype aside (the tensors are written as F32, and it says so); the tensors reload
// bit-identically to the trained ones.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { Row } from '../../../actors/learner/index.js';
import { loadLearnerCheckpoint, saveLearnerCheckpoint } from '../../../actors/learner/learner-checkpoint.js';
import { validateLearnerOptions } from '../../../actors/learner/options.js';
import { loadLearnerModel } from '../../../actors/learner/learner-model.js';
import { loadModel, parameterShapes } from '../../../model/index.js';
import { modelCommand } from '../../../model/cli-model.js';
import { hfFixtureCopy } from '../../helpers/hf-fixture.js';
import { tempDir } from '../../helpers/nats.js';

const readJson = async (f: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(f, 'utf8')) as Record<string, unknown>;
const sameBits = (a: Float32Array, b: Float32Array | undefined): boolean => b !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const sink = { write: () => true } as unknown as NodeJS.WritableStream;

// Llama with llama3 rope scaling, head_dim 8 and an untied head; Qwen2 tied with biases; Qwen3 with q/k norms; a BF16 Llama.
for (const name of ['llama-f32-untied', 'qwen2-f32-tied', 'qwen3-f32-untied', 'llama-bf16-tied-sharded']) {
  t.test(`${name}: import, train, checkpoint, resume, export keeps config.json`, async (t) => {
    const source = await hfFixtureCopy(t, name, { tokenizerFrom: 'qwen2-f32-tied' });
    const original = await readJson(join(source, 'config.json'));
    const stateDir = tempDir(t, 'spade-learner-');
    const o = validateLearnerOptions({ init: { checkpoint: source }, host: { ownThread: false }, checkpoints: { format: 'hf' } });

    const m = await loadLearnerModel(stateDir, o, 1);
    t.equal(m.origin, 'init-checkpoint');
    t.same(m.hfConfig, original, 'the learner holds the imported config.json');
    const tokens = m.tokenizer.encode('the sea and the stars');
    const row: Row = { trajId: 't1', tokens, positions: tokens.map((_, i) => i).slice(1), behaviour: new Float32Array(tokens.length - 1).fill(-3), advantage: 1 };
    await m.trainer.update([row]);
    const trained = await m.trainer.state();
    await m.trainer.close();
    const state = { version: 1, updates: 1, applied: 1, dropped: 0, lastStreamSeq: 1 };
    const save = (s: typeof state, c: typeof trained, hfConfig: Record<string, unknown> | undefined) => saveLearnerCheckpoint(stateDir, {
      state: s, model: { ...m.config }, params: c.weights, shapes: parameterShapes(m.config), tokenizer: m.tokenizer, optimizer: c.optimizer, ...(hfConfig ? { hfConfig } : {}),
    }, 2, 'hf');
    await save(state, trained, m.hfConfig);

    // A restart resumes from that checkpoint and carries the config into the next one.
    const resumed = await loadLearnerModel(stateDir, o, 1);
    t.equal(resumed.origin, 'resume');
    t.same(resumed.hfConfig, original, 'the resumed learner still holds it');
    const again = await resumed.trainer.state();
    await resumed.trainer.close();
    const ck = await save({ ...state, updates: 2, version: 2 }, again, resumed.hfConfig);

    const expected = { ...original, torch_dtype: 'float32' };
    t.same(await readJson(join(ck, 'hf', 'config.json')), expected, 'checkpointFormat hf: config.json as imported (dtype float32)');
    const out = join(tempDir(t, 'spade-export-'), 'out');
    t.equal(await modelCommand(['export', join(ck, 'model'), out], { stdout: sink, stderr: sink } as never), 0);
    t.same(await readJson(join(out, 'config.json')), expected, 'spade model export: config.json as imported (dtype float32)');

    const back = await loadModel(out);
    t.same(back.model, m.config, 'the same decoder config');
    const differing = [...trained.weights].filter(([n, a]) => !sameBits(a, back.params.get(n))).map(([n]) => n);
    t.same(differing, [], 'every trained tensor reloads bit-identically');
    const imported = await loadModel(source);
    t.ok([...trained.weights].some(([n, a]) => !sameBits(a, imported.params.get(n))), 'and the update changed them');
    const loaded = await loadLearnerCheckpoint(stateDir);
    t.same(loaded?.hfConfig, original, 'loadLearnerCheckpoint reads it back');
  });
}
