// Lets tfjs's threaded WASM build (XNNPACK with SIMD and pthreads) run under Node, which tfjs itself refuses
// (tfjs issue #3830: its Emscripten pthread workers are created from blob: URLs, which Node's Worker rejects).
// The worker script is written to a temporary file instead, and loads the module factory from its file path.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const BLOB_LOAD = 'if(typeof e.data.urlOrBlob=="string"){importScripts(e.data.urlOrBlob)}else{var objectUrl=URL.createObjectURL(e.data.urlOrBlob);importScripts(objectUrl);URL.revokeObjectURL(objectUrl)}';

/**
 * Call before tf.setBackend('wasm'), then call the returned `restore` once tf.ready() resolved; returns null (and
 * changes nothing) when the shipped worker is not the expected one. tfjs caps its XNNPACK pool at half the logical
 * cores (it assumes two hyperthreads per core), which is one thread on a 2-vCPU machine; os.cpus() reports
 * 2·threads entries during initialisation so that the pool gets `threads` threads.
 */
export function enableNodeWasmThreads(tf, threads) {
  const out = '@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm-threaded-simd';
  const source = require(`${out}.worker.js`).wasmWorkerContents;
  if (typeof source !== 'string' || !source.includes(BLOB_LOAD)) return null;
  const workerPath = join(mkdtempSync(join(tmpdir(), 'tfjs-wasm-')), 'pthread-worker.cjs');
  // The template literal turned the script's "\\n" escapes into newlines inside string literals; tfjs undoes it the same way.
  writeFileSync(workerPath, source.replace(/\n/g, '\\n').replace(BLOB_LOAD, `importScripts(${JSON.stringify(require.resolve(`${out}.js`))});`));
  const createObjectURL = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (blob) => (blob?.type === 'application/javascript' ? workerPath : createObjectURL(blob));
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
  const cpus = os.cpus;
  os.cpus = () => Array.from({ length: 2 * threads }, (_, i) => cpus()[i % cpus().length]);
  return () => {
    URL.createObjectURL = createObjectURL;
    os.cpus = cpus;
  };
}
