// `spade start --budget-episodes N` ends the run (drain, final checkpoint, exit 0) once the agent has played N
// episodes, hinted ones included, within an iteration of N; the final metrics line counts them beside the tokens.
// Real host: embedded nats-server, QuickJS sandbox, onnxruntime (tiny model).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const SET = setArgs(['loop.ablations.fixedEnvs=true', ...TINY_RUN]);

t.test('a run with an agent-episode budget stops within an iteration of it', { timeout: 300_000 }, async (t) => {
  const runDir = join(tempDir(t, 'spade-episodes-'), 'run');
  const host = spawnHost(t, ['--run-dir', runDir, '--budget-episodes', '40', ...SET], { SPADE_NATS_URL: '' });
  t.equal((await host.exited).code, 0, 'the host exits 0');
  t.match(host.output(), /budget spent: \d+ of 40 agent episodes/, 'the episode budget ended the run');
  const lines = readFileSync(join(runDir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; iterationsDone: number; agentEpisodes: number; tokens: { total: number } });
  const final = lines.find((l) => l.event === 'final')!;
  const perIteration = final.agentEpisodes / final.iterationsDone;
  t.ok(Math.abs(final.agentEpisodes - 40) <= perIteration, `${final.agentEpisodes} episodes, within one iteration (${perIteration.toFixed(1)}) of 40`);
  t.ok(final.tokens.total > 0, 'tokens are still counted beside');
});
