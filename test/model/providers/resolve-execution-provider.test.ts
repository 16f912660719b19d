// cpu always resolves; unknown names fail listing what is available; webgpu and cuda either work
// (a GPU host) or fail at resolve time with the typed error that says why (this machine, CI).
import t from 'tap';
import { isProviderError, ProviderInitError, ProviderUnavailableError } from '../../../model/errors.js';
import { availableExecutionProviders, CUDA_INSTALL_HINT, listExecutionProviders, resolveExecutionProvider } from '../../../model/providers.js';
import { caughtAsync } from '../tokenizer/helpers.js';

t.test('cpu', async (t) => {
  t.same(await resolveExecutionProvider('cpu'), { name: 'cpu', executionProviders: ['cpu'] });
  t.ok(availableExecutionProviders().includes('cpu'));
  t.ok(listExecutionProviders().every((p) => ['cpu', 'webgpu', 'cuda'].includes(p.name)), 'only the providers the project supports');
});

t.test('unknown name lists the available providers', async (t) => {
  const e = await caughtAsync(() => resolveExecutionProvider('tpu'));
  t.ok(e instanceof ProviderUnavailableError, String(e));
  const err = e as ProviderUnavailableError;
  t.equal(err.provider, 'tpu');
  t.same(err.available, availableExecutionProviders());
  t.match(err.message, /"tpu" is not available: unknown name \(expected one of cpu, webgpu, cuda\); available: cpu/);
});

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

t.test('cuda works, or says how to install it, or why it cannot start', async (t) => {
  const e = await caughtAsync(() => resolveExecutionProvider('cuda'));
  if (e === undefined) return t.pass('cuda started');
  const installed = listExecutionProviders().find((p) => p.name === 'cuda')?.installed ?? false;
  if (!installed) t.ok(e instanceof ProviderUnavailableError && String(e).includes(CUDA_INSTALL_HINT), String(e));
  else t.ok(e instanceof ProviderInitError, String(e));
});
