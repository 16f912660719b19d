// Pure logic: with a policy-token budget the coordinator issues one iteration until one has finished, then as many as
// fit at the mean cost of a finished iteration (counting what iterations in flight will still spend), and ends once
// nothing fits and nothing is in flight — after the learner has counted the last iteration's update.
import t from 'tap';
import { budgetAllows } from '../../../actors/coordinator/budget.js';
import { transition, type CoordinatorEffect, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { packInts } from '../../../actors/loop/packed.js';
import { freshState } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 1, maxStaleness: 2, iterations: Infinity, minutes: Infinity, budgetTokens: 1000, curvePoints: 0 };
const sample = (n: number) => ({ promptTokens: packInts([1]), tokens: packInts(Array.from({ length: n }, () => 7)), logprobs: new Uint8Array(4 * n), versions: packInts(Array.from({ length: n }, () => 0)), text: '', finishReason: 'stop' });
// Each iteration's labeled batch: a designer sample of 60 tokens and an agent episode of 2 turns × 20 tokens.
const labeled = (iteration: number) => ({
  batchId: `b${iteration}`, envId: `e${iteration}`, iteration, accepted: false, designerReward: -1,
  trajectories: [{ trajId: `d${iteration}`, role: 'designer' as const, samples: [sample(60)], advantage: 0, reward: -1 }, { trajId: `a${iteration}`, role: 'agent' as const, samples: [sample(20), sample(20)], advantage: 0, reward: 0 }],
});
const metric = (update: number, name: string, value: number) => ({ role: 'learner', host: 'h', ts: update, name, value, tags: { update: String(update) } });

t.test('a budget issues iterations to land within half an iteration of it, then ends the run', async (t) => {
  const s = freshState();
  t.equal(budgetAllows(s.stats, 0, o), 1, 'one iteration before any cost is known');
  t.equal(budgetAllows(s.stats, 1, o), 0, 'and no second while it is in flight');
  const issued: number[] = [];
  let shutdown: string | undefined;
  const run = (fx: CoordinatorEffect[]) => {
    for (const f of fx) {
      if (f.type === 'issue') for (const it of f.iterations) issued.push(it.iteration);
      if (f.type === 'shutdown') shutdown = f.reason;
    }
  };
  run(transition(s, { type: 'issued', next: 0, now: 0 }, o).effects);
  t.same(issued, [0]);
  for (let i = 0; i < 20 && !shutdown; i++) {
    // The learner publishes version i + 1 after training iteration i on its 100 sampled tokens.
    const done = issued.filter((x) => x <= i);
    if (!done.includes(i)) break;
    run(transition(s, { type: 'issued', next: Math.max(...issued) + 1, now: i }, o).effects);
    // The designer and agent jobs report what they sampled (the agent's hinted episodes too: 40 more than labeled).
    run(transition(s, { type: 'metric', body: { role: 'designer', host: 'h', ts: i, name: 'sample.tokens', value: 60, tags: { iteration: String(i) } }, now: i }, o).effects);
    run(transition(s, { type: 'metric', body: { role: 'agent', host: 'h', ts: i, name: 'sample.tokens', value: 80, tags: { iteration: String(i) } }, now: i }, o).effects);
    run(transition(s, { type: 'labeled', body: labeled(i), now: i }, o).effects);
    // Its update's metrics: 2 trajectories a batch applied so far, then the update count and its trained tokens.
    for (const [name, value] of [['applied', 2 * (i + 1)], ['updates', i + 1], ['tokens', 110]] as const)
      run(transition(s, { type: 'metric', body: metric(i + 1, name, value), now: i }, o).effects);
    run(transition(s, { type: 'policyVersion', version: i + 1, now: i }, o).effects);
  }
  // 250 tokens an iteration (60 + 80 sampled, 110 trained): four spend the 1000 exactly.
  t.same(issued, [0, 1, 2, 3], 'four iterations issued, never a fifth');
  t.equal(s.stats.tokens.sampledDesigner, 240);
  t.equal(s.stats.tokens.sampledAgent, 320);
  t.equal(s.stats.tokens.labeledAgent, 160, 'the labeled batches hold fewer agent tokens than were sampled');
  t.equal(s.stats.tokens.trained, 440);
  t.match(shutdown, /budget spent: 1000 of 1000 policy tokens/, 'the run ends once the last update is counted');
});
