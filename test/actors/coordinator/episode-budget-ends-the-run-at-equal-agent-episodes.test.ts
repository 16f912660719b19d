// Pure logic: with an agent-episode budget (run.budgetEpisodes) the coordinator counts the episodes the agent groups
// report, hinted ones included, and not tokens: a designer that writes long modules spends no episodes, so arms with
// different designers are stopped at the same agent experience.
import t from 'tap';
import { budgetAllows, budgetWords, spentOf } from '../../../actors/coordinator/budget.js';
import { transition, type CoordinatorEffect, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { packInts } from '../../../actors/loop/packed.js';
import { freshState } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 1, maxStaleness: 2, iterations: Infinity, minutes: Infinity, budgetEpisodes: 64, curvePoints: 0 };
const sample = (n: number) => ({ promptTokens: packInts([1]), tokens: packInts(Array.from({ length: n }, () => 7)), logprobs: new Uint8Array(4 * n), versions: packInts(Array.from({ length: n }, () => 0)), text: '', finishReason: 'stop' });
const labeled = (iteration: number) => ({
  batchId: `b${iteration}`, envId: `e${iteration}`, iteration, accepted: false, designerReward: -1,
  trajectories: [{ trajId: `d${iteration}`, role: 'designer' as const, samples: [sample(600)], advantage: 0, reward: -1 }, { trajId: `a${iteration}`, role: 'agent' as const, samples: [sample(20)], advantage: 0, reward: 0 }],
});
const metric = (role: string, name: string, value: number, tags: Record<string, string>) => ({ role, host: 'h', ts: 0, name, value, tags });

t.test('an episode budget ends the run on the agent episodes played, whatever the designer spent', async (t) => {
  const s = freshState();
  t.equal(budgetWords(o), '64 agent episodes');
  t.equal(budgetAllows(s.stats, 0, o), 1, 'one iteration before any cost is known');
  const issued: number[] = [];
  let shutdown: string | undefined;
  const run = (fx: CoordinatorEffect[]) => {
    for (const f of fx) {
      if (f.type === 'issue') for (const it of f.iterations) issued.push(it.iteration);
      if (f.type === 'shutdown') shutdown = f.reason;
    }
  };
  run(transition(s, { type: 'issued', next: 0, now: 0 }, o).effects);
  for (let i = 0; i < 20 && !shutdown; i++) {
    if (!issued.includes(i)) break;
    run(transition(s, { type: 'issued', next: Math.max(...issued) + 1, now: i }, o).effects);
    // A 600-token design, then a group of 16 episodes (8 without the hint, 8 with it) of 20 tokens each.
    run(transition(s, { type: 'metric', body: metric('designer', 'sample.tokens', 600, { iteration: String(i) }), now: i }, o).effects);
    run(transition(s, { type: 'metric', body: metric('agent', 'sample.tokens', 320, { iteration: String(i) }), now: i }, o).effects);
    run(transition(s, { type: 'metric', body: metric('agent', 'episodes', 16, { iteration: String(i) }), now: i }, o).effects);
    run(transition(s, { type: 'labeled', body: labeled(i), now: i }, o).effects);
    for (const [name, value] of [['applied', 2 * (i + 1)], ['updates', i + 1], ['tokens', 20]] as const)
      run(transition(s, { type: 'metric', body: metric('learner', name, value, { update: String(i + 1) }), now: i }, o).effects);
    run(transition(s, { type: 'policyVersion', version: i + 1, now: i }, o).effects);
  }
  t.same(issued, [0, 1, 2, 3], 'four groups of 16 spend the 64 episodes; no fifth iteration');
  t.equal(s.stats.agentEpisodes, 64);
  t.equal(spentOf(s.stats, o), 64, 'spent is counted in episodes');
  t.ok(s.stats.tokens.sampledDesigner > 64 * 20, 'while the designer sampled far more tokens than that');
  t.match(shutdown, /budget spent: 64 of 64 agent episodes/, 'the run ends on the episode count');
});
