// The autodiff walker throws MissingVjpRuleError naming an op that has no rule on the differentiated path.
import t from 'tap';
import { Graph, gradients, isMissingVjpRuleError } from '../../../model/graph/index.js';

t.test('an op with no rule on the differentiated path throws MissingVjpRuleError naming it', async (t) => {
  const g = new Graph('float64');
  const x = g.input('x', 'float64', [3]);
  const y = g.node('Relu', [x], { outputs: [{ dtype: 'float64', shape: [3] }] })[0]!;
  const w = g.input('w', 'float64', [3]);
  t.throws(() => gradients([y], [w], [x]), { name: 'MissingVjpRuleError', op: 'Relu', code: 'GRAPH_NO_VJP' });
  try { gradients([y], [w], [x]); } catch (err) { t.ok(isMissingVjpRuleError(err)); }
});
