// `--resume RUN_DIR` continues a stopped run on its embedded server: the coordinator picks up at the next
// iteration, the learner at its checkpoint, and no trajectory is applied twice across the restart.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAccounting } from '../../actors/learner/accounting.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const SET = setArgs(['loop.ablations.fixedEnvs=true', ...TINY_RUN, 'run.maxStaleness=1']);

t.test('a run resumed from its directory finishes the remaining iterations', { timeout: 300_000 }, async (t) => {
  const runDir = join(tempDir(t, 'spade-resume-'), 'run');
  const first = spawnHost(t, ['--run-dir', runDir, '--iterations', '2', ...SET], { SPADE_NATS_URL: '' });
  t.equal((await first.exited).code, 0, 'first part ends after 2 iterations');
  const second = spawnHost(t, ['--resume', runDir, '--iterations', '4'], { SPADE_NATS_URL: '' });
  t.equal((await second.exited).code, 0, 'resumed part ends after 4 iterations in all');
  t.match(second.output(), /next iteration 2/, 'the coordinator continued at iteration 2');

  const metrics = readFileSync(join(runDir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; iterationsDone: number });
  const finals = metrics.filter((m) => m.event === 'final');
  t.same(finals.map((m) => m.iterationsDone), [2, 4], 'iterations done: 2, then 4 in all');
  const lines = await readAccounting(join(runDir, 'learner'));
  const applied = lines.flatMap((l) => (l.kind === 'update' ? l.applied : []));
  const dropped = lines.flatMap((l) => (l.kind === 'drop' ? l.dropped : []));
  t.equal(new Set(applied).size, applied.length, 'no trajectory applied twice across the restart');
  t.equal(applied.length + dropped.length, 4 * 2 * 2 * 2, 'every agent trajectory of the 4 iterations accounted for (iterations × designs × k × both arms)');
});
