// The AdamW kernel's shipped bytes are what its WebAssembly text assembles to: an edit of the .wat without
// `npm run build:kernels` (or an edit of the generated module) fails here.
import { join } from 'node:path';
import t from 'tap';
import { ADAMW_KERNEL_WASM } from '../../../model/adamw-kernel-wasm.js';
import { REPO_ROOT } from '../../../runtime/paths.js';
import { assembleWat } from '../../../scripts/assemble-wat.js';

t.test('the shipped AdamW kernel is its source assembled', async (t) => {
  const bytes = await assembleWat(join(REPO_ROOT, 'model/adamw-kernel.wat'));
  t.equal(Buffer.from(ADAMW_KERNEL_WASM, 'base64').toString('hex'), Buffer.from(bytes).toString('hex'), 'run npm run build:kernels');
});
