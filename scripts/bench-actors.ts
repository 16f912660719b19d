// Benchmark of the designer and agent logic on the shared policy service (freshly initialised model, no checkpoint)
// and a local sandbox: designer jobs/s and tokens/s, agent episodes/s and turns/s, each with concurrent jobs
// against a one-at-a-time baseline in the same run (the gain is the sampler's batching). Ends with one JSON line.
import { readFileSync } from 'node:fs';
import { design, type DesignerDeps } from '../actors/designer/index.js';
import { playGroup, type AgentDeps } from '../actors/agent/index.js';
import { validateLoopOptions, type LoopOptions } from '../actors/loop/index.js';
import type { AcceptedEnv } from '../actors/loop/index.js';
import { PolicyService } from '../actors/loop/policy/index.js';
import { repoPath } from '../runtime/paths.js';
import { SandboxPool } from '../sandbox/index.js';

// The bench's own small models (docs/loop.md's figures are for these), not the policy default (DEFAULT_POLICY_MODEL).
const SIZE = process.env.BENCH_MODEL === 'tiny'
  ? { layers: 1, width: 32, heads: 2, contextLength: 512, seed: 1 }
  : { layers: 2, width: 64, heads: 4, contextLength: 1024, seed: 0 };
const JOBS = Number(process.env.BENCH_JOBS ?? 8);

const cpuSec = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; sec: number; cpu: number }> {
  const t0 = performance.now(), c0 = cpuSec();
  const value = await run();
  return { value, sec: (performance.now() - t0) / 1000, cpu: cpuSec() - c0 };
}

async function main(): Promise<void> {
  const base = validateLoopOptions();
  const options: LoopOptions = validateLoopOptions({
    k: 4,
    policy: { ...base.policy, checkpoint: null, weightSync: false, init: SIZE },
    designer: { maxTokens: 128, validationSeeds: 4 },
    agent: { maxTokens: 16, maxTurns: 8 },
    ablations: { noCorpus: true },
    sandbox: { mode: 'local', workers: 1 },
  });
  const policy = await PolicyService.open({ policy: options.policy });
  const pool = new SandboxPool({ workers: 1 });
  const c = policy.config;
  console.log(`model ${c.layers}x${c.width} (heads ${c.heads}, context ${c.contextLength}, vocab ${c.vocab}); ${JOBS} jobs per measurement`);

  const designerDeps: DesignerDeps = { policy, sandbox: pool, options, corpus: null, memory: null, outcomes: null };
  const designRun = (concurrent: boolean, tag: string) => timed(async () => {
    const jobs = Array.from({ length: JOBS }, (_, i) => ({ jobId: `${tag}-${i}`, iteration: 0, seed: i }));
    const tokens0 = policy.stats.tokens;
    if (concurrent) await Promise.all(jobs.map((j) => design(j, designerDeps)));
    else for (const j of jobs) await design(j, designerDeps);
    return policy.stats.tokens - tokens0;
  });
  await design({ jobId: 'warm', iteration: 0, seed: 99 }, designerDeps);
  const dSeq = await designRun(false, 'seq');
  const dPar = await designRun(true, 'par');
  const designer = {
    sequentialJobsPerSec: JOBS / dSeq.sec, concurrentJobsPerSec: JOBS / dPar.sec,
    sequentialTokensPerSec: dSeq.value / dSeq.sec, concurrentTokensPerSec: dPar.value / dPar.sec,
    ratio: dSeq.sec / dPar.sec,
  };
  console.log(`designer: ${designer.sequentialJobsPerSec.toFixed(2)} jobs/s one at a time, ${designer.concurrentJobsPerSec.toFixed(2)} jobs/s ${JOBS} at once (x${designer.ratio.toFixed(2)}); ${designer.concurrentTokensPerSec.toFixed(0)} tokens/s`);

  const code = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');
  const r = await pool.reset({ code, seed: 0 });
  const env: AcceptedEnv = {
    envId: 'bench', jobId: 'bench', iteration: 0, code, codeHash: r.codeHash, family: 'reasoning', parents: [], validation: { ms: 0 },
    spec: { name: r.spec.name, description: r.spec.description, hint: r.spec.hint, maxTurns: r.spec.maxTurns },
  };
  const agentDeps: AgentDeps = { policy, sandbox: pool, options };
  const groups = Math.max(1, Math.floor(JOBS / 2));
  const agentRun = (concurrent: boolean) => timed(async () => {
    const jobs = Array.from({ length: groups }, (_, i) => ({ env: { ...env, envId: `bench-${concurrent}-${i}` }, k: options.k, seedBase: i * 100 }));
    const results = concurrent ? await Promise.all(jobs.map((j) => playGroup(j, agentDeps))) : await jobs.reduce(async (acc, j) => [...(await acc), await playGroup(j, agentDeps)], Promise.resolve([] as Awaited<ReturnType<typeof playGroup>>[]));
    const eps = results.flatMap((x) => x.episodes);
    return { episodes: eps.length, turns: eps.reduce((a, e) => a + e.turns.length, 0) };
  });
  const aSeq = await agentRun(false);
  const aPar = await agentRun(true);
  const agent = {
    sequentialEpisodesPerSec: aSeq.value.episodes / aSeq.sec, concurrentEpisodesPerSec: aPar.value.episodes / aPar.sec,
    concurrentTurnsPerSec: aPar.value.turns / aPar.sec, ratio: (aPar.value.episodes / aPar.sec) / (aSeq.value.episodes / aSeq.sec),
    episodesPerCpuSec: aPar.value.episodes / aPar.cpu,
  };
  console.log(`agent: ${agent.sequentialEpisodesPerSec.toFixed(2)} episodes/s one group at a time (${2 * options.k} episodes each), ${agent.concurrentEpisodesPerSec.toFixed(2)} episodes/s ${groups} groups at once (x${agent.ratio.toFixed(2)}); ${agent.concurrentTurnsPerSec.toFixed(1)} turns/s`);
  await policy.close();
  await pool.close();
  console.log(JSON.stringify({ bench: 'actors', model: { layers: c.layers, width: c.width, contextLength: c.contextLength }, jobs: JOBS, designer, agent }));
}

await main();
