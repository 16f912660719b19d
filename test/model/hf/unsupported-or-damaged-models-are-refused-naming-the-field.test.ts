// A Hugging Face directory the engine cannot run exactly is refused at load with a typed error naming the config
// field or tensor: other model types, activations, rope scalings, biases, sliding windows; shard paths out of the
// directory; missing, unexpected, misshapen or non-float tensors; a shard larger than its tensors could be.
import t from 'tap';
import { cp, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointConfigError, CorruptFileError, DtypeMismatchError, MissingTensorError, ShapeMismatchError, UnexpectedTensorError, UnsupportedModelError } from '../../../model/errors.js';
import { loadModel } from '../../../model/load-model.js';
import { loadCheckpoint } from '../../../model/checkpoint.js';
import { decodeSafetensors, encodeSafetensors, toFloat32 } from '../../../model/safetensors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { fixtureDir } from './fixtures.js';

t.test('unsupported or damaged Hugging Face directories are refused naming the field', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'spade-hf-bad-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  let n = 0;
  const copyOf = async (name: string): Promise<string> => {
    const d = join(root, `${n++}`);
    await cp(fixtureDir(name), d, { recursive: true });
    return d;
  };
  const editConfig = async (d: string, edit: (c: Record<string, unknown>) => void): Promise<void> => {
    const c = JSON.parse(await readFile(join(d, 'config.json'), 'utf8')) as Record<string, unknown>;
    edit(c);
    await writeFile(join(d, 'config.json'), JSON.stringify(c));
  };

  const unsupported: Array<[string, (c: Record<string, unknown>) => void, string]> = [
    ['model_type', (c) => (c.model_type = 'gpt2'), '"gpt2"'],
    ['hidden_act', (c) => (c.hidden_act = 'gelu_pytorch_tanh'), 'gelu_pytorch_tanh'],
    ['rope_scaling.rope_type', (c) => (c.rope_scaling = { rope_type: 'yarn', factor: 4 }), '"yarn"'],
    ['mlp_bias', (c) => (c.mlp_bias = true), 'true'],
    ['attention_bias', (c) => (c.attention_bias = true), 'output-projection'],
    ['use_sliding_window', (c) => (c.use_sliding_window = true), 'true'],
  ];
  for (const [field, edit, says] of unsupported) {
    const d = await copyOf('llama-f32-untied');
    await editConfig(d, edit);
    const e = await caughtAsync(() => loadModel(d));
    t.ok(e instanceof UnsupportedModelError && e.field === field && (e as Error).message.includes(says), `${field}: ${String(e)}`);
  }
  {
    const d = await copyOf('llama-f32-untied');
    await editConfig(d, (c) => (c.num_key_value_heads = 3));
    const e = await caughtAsync(() => loadModel(d));
    t.ok(e instanceof CheckpointConfigError && (e.data as { field?: string }).field === 'num_key_value_heads', `bad kv heads: ${String(e)}`);
  }

  // Sharded: a weight_map entry that leaves the directory.
  {
    const d = await copyOf('qwen2-bf16-untied-sharded');
    const index = JSON.parse(await readFile(join(d, 'model.safetensors.index.json'), 'utf8')) as { weight_map: Record<string, string> };
    index.weight_map['model.norm.weight'] = '../../etc/model.safetensors';
    await writeFile(join(d, 'model.safetensors.index.json'), JSON.stringify(index));
    const e = await caughtAsync(() => loadModel(d));
    t.ok(e instanceof CheckpointConfigError && (e.data as { field?: string }).field === 'weight_map.model.norm.weight', `path out of the directory: ${String(e)}`);
  }

  // Tensor-level damage in a single-file model, each naming the Hugging Face tensor.
  const rewrite = async (edit: (m: Map<string, { dtype: string; shape: number[]; data: Float32Array }>) => void): Promise<unknown> => {
    const d = await copyOf('qwen3-f32-untied');
    const st = decodeSafetensors(await readFile(join(d, 'model.safetensors')));
    const m = new Map([...st.tensors].map(([k, v]) => [k, { dtype: v.dtype, shape: v.shape, data: toFloat32(v, k) }]));
    edit(m);
    const ints = [...m].filter(([, v]) => v.dtype === 'I32');
    let bytes = encodeSafetensors([...m]);
    if (ints.length > 0) {
      // encodeSafetensors writes floats only: relabel the F32 entry as I32 in the header (same byte size).
      const text = Buffer.from(bytes).toString('latin1').replace(`"${ints[0]![0]}":{"dtype":"F32"`, `"${ints[0]![0]}":{"dtype":"I32"`);
      bytes = Buffer.from(text, 'latin1');
    }
    await writeFile(join(d, 'model.safetensors'), bytes);
    return caughtAsync(() => loadModel(d));
  };
  let e = await rewrite((m) => m.delete('model.layers.1.self_attn.k_norm.weight'));
  t.ok(e instanceof MissingTensorError && (e as Error).message.includes('model.layers.1.self_attn.k_norm.weight'), `missing: ${String(e)}`);
  e = await rewrite((m) => m.set('model.layers.0.self_attn.rotary_extra', { dtype: 'F32', shape: [2], data: new Float32Array(2) }));
  t.ok(e instanceof UnexpectedTensorError && (e as Error).message.includes('rotary_extra'), `unexpected: ${String(e)}`);
  e = await rewrite((m) => {
    const w = m.get('model.layers.0.mlp.up_proj.weight')!;
    w.shape = [w.shape[1]!, w.shape[0]!];
  });
  t.ok(e instanceof ShapeMismatchError && (e as Error).message.includes('model.layers.0.mlp.up_proj.weight'), `transposed: ${String(e)}`);
  e = await rewrite((m) => (m.get('model.norm.weight')!.dtype = 'I32'));
  t.ok(e instanceof DtypeMismatchError && (e as Error).message.includes('model.norm.weight'), `integer tensor: ${String(e)}`);

  // A command that takes SPADE checkpoints only says so instead of misreading the directory.
  {
    const err = await caughtAsync(() => loadCheckpoint(fixtureDir('qwen2-f32-tied')));
    t.ok(err instanceof CheckpointConfigError && (err.data as { field?: string }).field === 'format' && /Hugging Face model directory \(model_type "qwen2"\)/.test((err as Error).message), `loadCheckpoint: ${String(err)}`);
  }

  // A shard far larger than its tensors could be is refused from its size, unread (a sparse file).
  {
    const d = await copyOf('llama-bf16-tied-sharded');
    await truncate(join(d, 'model-00002-of-00002.safetensors'), 2 ** 30);
    const err = await caughtAsync(() => loadModel(d));
    t.ok(err instanceof CorruptFileError && /^model-00002-of-00002\.safetensors: corrupt file: 1073741824 bytes/.test((err as Error).message), `oversize shard: ${String(err)}`);
  }
});
