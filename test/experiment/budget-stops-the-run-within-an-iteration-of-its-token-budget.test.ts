// `spade start --budget-tokens N` ends the run (drain, final checkpoint, exit 0) once N policy tokens are spent —
// tokens sampled by the designer and the agent plus tokens trained — within an iteration of N, and the final
// metrics line counts them per role. Real host: embedded nats-server, QuickJS sandbox, onnxruntime (tiny model).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const SET = setArgs(['loop.ablations.fixedEnvs=true', ...TINY_RUN]);

t.test('a run with a policy-token budget stops within an iteration of it', { timeout: 300_000 }, async (t) => {
  const runDir = join(tempDir(t, 'spade-budget-'), 'run');
  const host = spawnHost(t, ['--run-dir', runDir, '--budget-tokens', '2000', ...SET], { SPADE_NATS_URL: '' });
  t.equal((await host.exited).code, 0, 'the host exits 0');
  t.match(host.output(), /budget spent: \d+ of 2000 policy tokens/, 'the budget ended the run');
  const lines = readFileSync(join(runDir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as {
    event: string; iterationsDone: number; learner: { updates: number }; tokens: { sampledDesigner: number; sampledAgent: number; trained: number; trainedUpdates: number; labeledAgent: number; total: number };
  });
  const final = lines.find((l) => l.event === 'final')!;
  const perIteration = final.tokens.total / final.iterationsDone;
  // Half an iteration at the mean cost; iterations in flight (η = 2) each cost more or less than the mean.
  t.ok(Math.abs(final.tokens.total - 2000) <= perIteration, `total ${final.tokens.total} within one iteration (${perIteration.toFixed(0)}) of 2000`);
  t.equal(final.tokens.sampledDesigner, 0, 'fixed environments: no designer tokens');
  t.ok(final.tokens.sampledAgent > 0 && final.tokens.trained > 0, 'agent tokens sampled and trained');
  t.equal(final.tokens.total, final.tokens.sampledDesigner + final.tokens.sampledAgent + final.tokens.trained);
  t.ok(final.tokens.labeledAgent > 0 && final.tokens.labeledAgent <= final.tokens.sampledAgent, 'sampled tokens count every episode, the labeled ones only what the evaluator passes on');
  t.equal(final.tokens.trainedUpdates, final.learner.updates, "every learner update's tokens were counted before the end");
});
