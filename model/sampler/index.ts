// Public entry of the sampler: batched decoding with a KV cache, token picking, and the sampler on its own thread.
export * from './sampler.js';
export * from './errors.js';
export * from './token-pick.js';
export * from './kv-batch.js';
export * from './thread.js';
export * from './prefix-cache.js';
export * from './prefill-groups.js';
export * from './shards.js';
