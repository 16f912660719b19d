// An unknown provider name fails with ProviderUnavailableError listing the known and the available providers.
import t from 'tap';
import { ProviderUnavailableError } from '../../../model/errors.js';
import { availableExecutionProviders, resolveExecutionProvider } from '../../../model/providers.js';
import { caughtAsync } from '../tokenizer/helpers.js';

t.test('unknown name lists the available providers', async (t) => {
  const e = await caughtAsync(() => resolveExecutionProvider('tpu'));
  t.ok(e instanceof ProviderUnavailableError, String(e));
  const err = e as ProviderUnavailableError;
  t.equal(err.provider, 'tpu');
  t.same(err.available, availableExecutionProviders());
  t.match(err.message, /"tpu" is not available: unknown name \(expected one of cpu, webgpu, cuda\); available: cpu/);
});
