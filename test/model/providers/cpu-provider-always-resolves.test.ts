// The cpu execution provider always resolves, and only the providers the project supports are listed.
import t from 'tap';
import { availableExecutionProviders, listExecutionProviders, resolveExecutionProvider } from '../../../model/providers.js';

t.test('cpu', async (t) => {
  t.same(await resolveExecutionProvider('cpu'), { name: 'cpu', executionProviders: ['cpu'] });
  t.ok(availableExecutionProviders().includes('cpu'));
  t.ok(listExecutionProviders().every((p) => ['cpu', 'webgpu', 'cuda'].includes(p.name)), 'only the providers the project supports');
});
