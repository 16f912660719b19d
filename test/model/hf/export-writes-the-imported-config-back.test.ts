// hfConfigFromDecoder writes an imported config.json back as it came when the decoder config is the one it describes,
// in transformers 4's form (rope_theta, rope_scaling, torch_dtype) and 5's (rope_parameters, dtype), only the dtype
// set to float32 (what the exported tensors are); a decoder config that no longer matches is rebuilt from the decoder
// config, keeping the other fields.
import t from 'tap';
import { decoderConfigFromHf, hfConfigFromDecoder } from '../../../model/hf-config.js';
import { validateDecoderConfig } from '../../../model/decoder-config.js';

const base = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 16, intermediate_size: 24, num_hidden_layers: 2, num_attention_heads: 4,
  num_key_value_heads: 2, vocab_size: 48, max_position_embeddings: 32, rms_norm_eps: 1e-6, hidden_act: 'silu', bos_token_id: 1, eos_token_id: 2,
  tie_word_embeddings: false, head_dim: 8, attention_bias: false, mlp_bias: false, pretraining_tp: 1, use_cache: true, initializer_range: 0.02,
};
const v4 = { ...base, rope_theta: 10000, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8 }, torch_dtype: 'bfloat16' };
const v5 = {
  ...base, dtype: 'bfloat16', transformers_version: '5.17.0',
  rope_parameters: { rope_type: 'llama3', rope_theta: 10000, factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8 },
};

t.test('export writes the imported config.json back, rebuilding it only where the architecture changed', async (t) => {
  t.test('an unchanged architecture writes the imported config.json back', async (t) => {
    for (const [name, hf] of [['transformers 4 form', v4], ['transformers 5 form', v5]] as const) {
      const c = decoderConfigFromHf(hf);
      const dtype = 'torch_dtype' in hf ? { torch_dtype: 'float32' } : { dtype: 'float32' };
      t.same(hfConfigFromDecoder(c, hf), { ...hf, ...dtype }, `${name}: every field as imported, the dtype float32`);
      t.same(hfConfigFromDecoder(validateDecoderConfig({ ...c })), hfConfigFromDecoder(c), `${name}: without a base, built from the decoder config`);
    }
    const noDtype: Record<string, unknown> = { ...v4 };
    delete noDtype.torch_dtype;
    t.equal(hfConfigFromDecoder(decoderConfigFromHf(noDtype), noDtype).torch_dtype, 'float32', 'a config without a dtype gets torch_dtype float32');
  });

  t.test('a changed architecture is rebuilt from the decoder config, keeping the other fields', async (t) => {
    const longer = validateDecoderConfig({ ...decoderConfigFromHf(v5), contextLength: 4096 });
    const out = hfConfigFromDecoder(longer, v5);
    t.equal(out.max_position_embeddings, 4096, 'the new context length');
    t.equal(out.bos_token_id, 1, 'token ids kept');
    t.equal(out.transformers_version, '5.17.0', 'other fields kept');
    t.equal(out.dtype, 'float32', 'its dtype field says float32');
    t.same(out.rope_scaling, v4.rope_scaling, 'rope scaling in the transformers 4 form');
    t.notOk('rope_parameters' in out, 'not also in the 5 form');
    t.same(decoderConfigFromHf(out), longer, 'it reads back as the new decoder config');
  });
});
