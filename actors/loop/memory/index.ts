// Public entry of the environment memory: the entry schema (shared with the evaluator), the KV store and retrieval.
export * from './memory-entry.js';
export { MemoryStore, type MemoryView } from './memory-store.js';
export { retrieve, frontierScore, type RetrieveOptions, type Retrieved } from './retrieve.js';
