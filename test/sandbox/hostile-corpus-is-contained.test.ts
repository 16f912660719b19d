// Every program of the hostile corpus is rejected with its expected typed error (or contained, with the
// expected observation), and the same single-worker pool then serves a valid request.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { hostileCorpus, servesValid } from './helpers.js';

const corpus = hostileCorpus();
const pool = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000, workerMemoryCapBytes: 128 * 1024 * 1024 });
t.teardown(() => pool.close());

t.ok(corpus.length >= 40, `corpus has ${corpus.length} programs`);

for (const c of corpus) {
  t.test(c.name, async (t) => {
    const [kind, ...rest] = c.expect.split(' ');
    const arg = rest.join(' ');
    if (kind === 'reset-observation') {
      const r = await pool.reset({ code: c.code, seed: 1 });
      t.equal(r.observation, arg);
    } else if (kind === 'step-observation') {
      await pool.reset({ code: c.code, seed: 1, episodeId: c.name });
      const r = await pool.step({ code: c.code, seed: 1, actions: ['x'], episodeId: c.name });
      t.equal(r.observation, arg);
    } else {
      const report = await pool.validate(c.code, { seeds: 2 });
      const failing = report.stages.find((s) => !s.ok);
      const why = `${failing?.stage}: ${failing?.detail}`;
      if (kind === 'valid') t.ok(report.ok, why);
      else if (kind === 'fail') {
        t.equal(report.failed, arg, why);
        t.notOk(failing?.error, 'a policy failure, not an error');
      } else {
        t.equal(report.failed, arg, why);
        t.ok(kind.split('|').includes(failing?.error?.name ?? ''), `${kind}: ${why}`);
      }
    }
    const ok = await servesValid(pool);
    t.equal(ok.turn, 2, 'the same pool serves a valid request afterwards');
  });
}
