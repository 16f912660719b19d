// An experiment interrupted mid-arm continues when run again on the same directory: the arm that finished is
// skipped (not run again), the interrupted one resumes its run (`spade start --resume`), and results.json is written.
// Real runs: the smoke preset's loop on the base checkpoint, a small budget, held-out eval on one module.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { experimentCommand, isArmRunError, resolveExperimentConfig, runExperiment } from '../../experiment/index.js';
import { tempDir } from '../helpers/nats.js';

t.setTimeout(600_000); // four (two) whole runs of the base checkpoint and a held-out eval: about 3 minutes alone, more beside the other test job

const attempts = (dir: string) => readFileSync(join(dir, 'attempts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { resumed: boolean });

t.test('an interrupted experiment skips finished arms and resumes the interrupted one', { timeout: 600_000 }, async (t) => {
  const out = join(tempDir(t, 'spade-exp-resume-'), 'exp');
  const config = resolveExperimentConfig('smoke', { budgetTokens: 1200, eval: { files: ['games/walk-line.js'], seeds: 1 } });
  // First pass: stop the fixed-envs run (SIGTERM: it drains) once it has finished an iteration.
  let interrupted = false;
  const first = runExperiment(config, {
    outDir: out,
    onSpawn: (arm, _seed, pid) => {
      if (arm !== 'fixed-envs') return;
      const metrics = join(out, 'fixed-envs-s1', 'metrics.jsonl');
      const timer = setInterval(() => {
        if (existsSync(metrics) && readFileSync(metrics, 'utf8').includes('"event":"iteration"')) {
          clearInterval(timer);
          interrupted = true;
          process.kill(pid, 'SIGTERM');
        }
      }, 200);
    },
  });
  const err = await first.then(() => null, (e: unknown) => e);
  t.ok(interrupted, 'the fixed-envs run was interrupted');
  t.ok(isArmRunError(err), 'the first pass fails naming the interrupted arm');
  t.match(String((err as Error).message), /fixed-envs seed 1: the run stopped before its budget was spent/);
  t.notOk(existsSync(join(out, 'results.json')), 'no results yet');

  const log: string[] = [];
  const sink = (a: string[]) => new Writable({ write(c, _e, cb) { a.push(String(c)); cb(); } });
  const code = await experimentCommand(['--out', out], { stdout: sink([]), stderr: sink(log) });
  const text = log.join('');
  t.equal(code, 0, `the second pass finishes (${text.slice(-400)})`);
  t.match(text, /spade seed 1: finished before, skipped/, 'the finished arm is skipped');
  t.match(text, /fixed-envs seed 1: resuming the interrupted run/, 'the interrupted arm resumes');
  t.same(attempts(join(out, 'spade-s1')).map((a) => a.resumed), [false], 'spade ran once');
  t.same(attempts(join(out, 'fixed-envs-s1')).map((a) => a.resumed), [false, true], 'fixed-envs: the interrupted attempt, then its resume');
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { accounting: { totals: Record<string, number> } };
  t.ok(results.accounting.totals['fixed-envs-s1']! >= 1200 * 0.9, 'the resumed run spent its whole budget across both attempts');
});
