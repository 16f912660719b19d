// webgpu either works (a GPU host) or fails at resolve time with the typed error that says why (this machine,
// CI), the same on every call.
import t from 'tap';
import { isProviderError, ProviderInitError, ProviderUnavailableError } from '../../../model/errors.js';
import { resolveExecutionProvider } from '../../../model/providers.js';
import { caughtAsync } from '../tokenizer/helpers.js';

t.test('webgpu works or fails with a clear typed error', async (t) => {
  const e = await caughtAsync(() => resolveExecutionProvider('webgpu'));
  if (e === undefined) {
    t.pass('webgpu started (a GPU host with a Vulkan driver)');
    return;
  }
  t.ok(isProviderError(e), String(e));
  if (e instanceof ProviderInitError) {
    t.match(e.message, /"webgpu" failed to start: no usable WebGPU adapter .*Vulkan.*; other available providers: cpu/);
    t.ok(e.cause !== undefined, 'keeps the onnxruntime error as cause');
  } else {
    t.ok(e instanceof ProviderUnavailableError && /available: cpu/.test(String(e)), `not shipped on this platform: ${String(e)}`);
  }
  const again = await caughtAsync(() => resolveExecutionProvider('webgpu'));
  t.equal(String(again), String(e), 'the failure is stable on a second call');
});
