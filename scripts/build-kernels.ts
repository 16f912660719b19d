// Assembles the engine's WebAssembly kernels from their text sources into the TypeScript modules that ship them.
// Usage: npm run build:kernels
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../runtime/paths.js';
import { assembleWat, kernelModuleText } from './assemble-wat.js';

const KERNELS = [{ source: 'model/adamw-kernel.wat', module: 'model/adamw-kernel-wasm.ts', name: 'ADAMW_KERNEL_WASM' }] as const;

for (const k of KERNELS) {
  const bytes = await assembleWat(join(REPO_ROOT, k.source));
  await writeFile(join(REPO_ROOT, k.module), kernelModuleText(k.source, k.name, bytes));
  console.log(`${k.source} -> ${k.module}: ${bytes.length} bytes`);
}
