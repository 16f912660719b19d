// Two checkpoints (the base one and a tiny random-weight one written here) play exactly the same environment
// instances — the same (module, seed, arm) episodes — so `paired` is a seed-paired comparison; its meanDiff is a − b
// of the two no-hint means.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { validateLoopOptions } from '../../actors/loop/options.js';
import { PolicyService } from '../../actors/loop/policy/policy-service.js';
import { playSuite, type PlayableEnv } from '../../eval/play.js';
import { loadSuite } from '../../eval/suite.js';
import { saveCheckpoint } from '../../model/checkpoint.js';
import { initParameters, parameterShapes } from '../../model/decoder.js';
import { type DecoderConfig } from '../../model/decoder-config.js';
import { loadTokenizer } from '../../model/tokenizer.js';
import { SandboxPool, type EpisodeRef, type StepRequest } from '../../sandbox/index.js';
import { BASE, evalJson, FIXTURE_SUITE } from './run-eval-command.js';

async function tinyCheckpoint(dir: string): Promise<string> {
  const tokenizer = loadTokenizer('bpe-2048');
  const config: DecoderConfig = { layers: 1, width: 32, heads: 2, kvHeads: 2, contextLength: 512, vocab: tokenizer.vocabSize };
  const path = join(dir, 'tiny');
  await saveCheckpoint(path, { model: { ...config }, params: initParameters(config, 3), shapes: parameterShapes(config), tokenizer, policyVersion: 0, step: 0 });
  return path;
}

t.setTimeout(480_000); // several runs of a checkpoint; on shared cores under load each can take a minute

t.test('the same instances for every checkpoint; paired = a − b', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eval-paired-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const tiny = await tinyCheckpoint(dir);

  // The episodes each checkpoint starts, seen at the real sandbox's reset (the pool does the work; we only listen).
  const pool = new SandboxPool({ workers: 1 });
  t.teardown(() => pool.close());
  const loop = validateLoopOptions({});
  const suite = loadSuite(FIXTURE_SUITE);
  const envs: PlayableEnv[] = [];
  for (const m of suite.modules) {
    const v = await pool.validate(m.code, { seeds: 4 });
    if (v.ok) envs.push({ key: v.spec!.name, file: m.file, family: m.family, code: m.code, codeHash: v.codeHash, spec: v.spec! });
  }
  const started = async (checkpoint: string): Promise<string[]> => {
    const seen: string[] = [];
    const sandbox = {
      validate: pool.validate.bind(pool),
      reset: (req: EpisodeRef) => (seen.push(`${req.codeHash}:${req.seed}:${req.episodeId?.split('@')[0]}`), pool.reset(req)),
      step: (req: StepRequest) => pool.step(req),
    };
    const policy = await PolicyService.open({ policy: { ...loop.policy, checkpoint, missingCheckpoint: 'fail', weightSync: false } });
    try {
      await playSuite(envs, { policy, sandbox, options: loop }, { seeds: [1001, 1002], hint: true, concurrency: 8 });
    } finally {
      await policy.close();
    }
    return seen.sort();
  };
  const a = await started(BASE);
  const b = await started(tiny);
  t.equal(a.length, envs.length * 2 * 2, 'every env x seed x arm started once');
  t.same(a, b, 'identical (module, seed, arm) episodes');

  const r = await evalJson([BASE, tiny, '--suite', FIXTURE_SUITE, '--seeds', '2']);
  t.equal(r.results.length, 2);
  t.equal(r.paired.length, 1);
  const p = r.paired[0]!;
  t.same([p.a, p.b], [BASE, tiny]);
  t.ok(Math.abs(p.meanDiff! - (r.results[0]!.meanReturnNoHint! - r.results[1]!.meanReturnNoHint!)) < 1e-12, JSON.stringify(p));
  t.ok(p.ci95![0] <= p.meanDiff! && p.meanDiff! <= p.ci95![1]);
  t.same(Object.keys(r.results[0]!.envs), Object.keys(r.results[1]!.envs));
});
