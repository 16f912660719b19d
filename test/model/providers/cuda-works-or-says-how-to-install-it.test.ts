// cuda either works (a GPU host), or says how to install it when it is not installed, or fails to start with
// ProviderInitError.
import t from 'tap';
import { ProviderInitError, ProviderUnavailableError } from '../../../model/errors.js';
import { CUDA_INSTALL_HINT, listExecutionProviders, resolveExecutionProvider } from '../../../model/providers.js';
import { caughtAsync } from '../tokenizer/helpers.js';

t.test('cuda works, or says how to install it, or why it cannot start', async (t) => {
  const e = await caughtAsync(() => resolveExecutionProvider('cuda'));
  if (e === undefined) return t.pass('cuda started');
  const installed = listExecutionProviders().find((p) => p.name === 'cuda')?.installed ?? false;
  if (!installed) t.ok(e instanceof ProviderUnavailableError && String(e).includes(CUDA_INSTALL_HINT), String(e));
  else t.ok(e instanceof ProviderInitError, String(e));
});
