// Bad graph runner options throw ModelOptionError naming the field; the default execution provider is cpu.
import t from 'tap';
import { validateRunnerOptions } from '../../../model/graph/index.js';

t.test('runner options are validated with the field named', async (t) => {
  t.throws(() => validateRunnerOptions({ intraOpNumThreads: -1 }), { name: 'ModelOptionError', message: /options\.intraOpNumThreads must be an integer >= 0/ });
  t.throws(() => validateRunnerOptions({ graphOptimizationLevel: 'max' as never }), { message: /options\.graphOptimizationLevel/ });
  t.throws(() => validateRunnerOptions({ executionProviders: [] }), { message: /options\.executionProviders/ });
  t.same(validateRunnerOptions({}).executionProviders, ['cpu']);
});
