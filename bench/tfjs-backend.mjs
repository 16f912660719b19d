// Brings up one tfjs backend: WASM (XNNPACK with SIMD; threads through ./wasm-threads.mjs) or the plain-JavaScript
// CPU backend. Must run before any tensor is made; tfjs initialises WASM once per process, so candidates are
// compared in separate processes (./tfjs-probe.mjs).
import * as tf from '@tensorflow/tfjs';
import * as wasm from '@tensorflow/tfjs-backend-wasm';
import { enableNodeWasmThreads } from './wasm-threads.mjs';

export { tf };

// Production mode silences tfjs's development warnings, among them the banner asking for @tensorflow/tfjs-node,
// which cannot install here (its install script downloads libtensorflow).
tf.env().set('PROD', true);

/** backend 'wasm' | 'cpu'; threads for WASM. Returns { backend, threads, notes }, backend null when it failed. */
export async function initBackend(backend, threads = 1) {
  const notes = [];
  if (backend === 'cpu') {
    return (await tf.setBackend('cpu')) ? { backend, threads: 1, notes } : { backend: null, threads: 0, notes: ['cpu backend failed'] };
  }
  const restore = threads > 1 ? enableNodeWasmThreads(tf, threads) : null;
  if (threads > 1 && !restore) notes.push('the WASM worker script is not the expected one: threads off');
  wasm.setThreadsCount(threads);
  const ok = await tf.setBackend('wasm').catch((err) => (notes.push(`wasm: ${err?.message ?? err}`), false));
  restore?.();
  return ok ? { backend, threads: wasm.getThreadsCount(), notes } : { backend: null, threads: 0, notes };
}

/** Bytes held by tensors now, and the WASM heap (it only grows, so it is the backend's peak). */
export function memory() {
  const b = tf.backend();
  const heap = b?.wasm?.HEAPU8?.byteLength ?? b?.wasm?.wasmMemory?.buffer?.byteLength ?? 0;
  return { tensorBytes: tf.memory().numBytes, wasmHeapBytes: heap };
}
