// The run's summary (metrics.jsonl, the live view) reports the agent's share of the sampled policy tokens: the
// `sample.tokens` metrics of the designer and the agent, counted where they are sampled. NaN before any.
import t from 'tap';
import { emptyStats, onMetric } from '../../../actors/coordinator/run-stats.js';
import { agentShare, summary } from '../../../actors/coordinator/run-summary.js';
import { renderView } from '../../../actors/coordinator/run-view.js';

const tokens = (role: string, value: number) => ({ role, host: 'h', ts: 0, name: 'sample.tokens', value, tags: { iteration: '0' } });

t.test("the agent's share of sampled tokens", async (t) => {
  const s = emptyStats(0);
  t.ok(Number.isNaN(summary(s, 1).tokens.agentShare), 'nothing sampled yet');
  onMetric(s, tokens('designer', 730));
  onMetric(s, tokens('agent', 180));
  onMetric(s, tokens('agent', 550));
  t.equal(summary(s, 1).tokens.agentShare, 0.5);
  t.equal(agentShare({ sampledDesigner: 1, sampledAgent: 3 }), 0.75);
  t.match(renderView(s, 1000, { iterations: Infinity, minutes: Infinity }), /agent share 50%/, 'the live view shows it');
});
