import { readFileSync } from 'node:fs';
import { planEpisodes, playEpisode } from '../actors/agent/index.js';
import { PolicyService, validateLoopOptions, type AcceptedEnv } from '../actors/loop/index.js';
import { repoPath } from '../runtime/paths.js';
import { SandboxPool } from '../sandbox/index.js';
const loop = validateLoopOptions({});
const sandbox = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
const policy = await PolicyService.open({ policy: { ...loop.policy, checkpoint: repoPath('model','checkpoints','base'), missingCheckpoint: 'fail', weightSync: false }, conn: null });
for (const f of process.argv.slice(2)) {
  const code = readFileSync(f, 'utf8');
  const r = await sandbox.validate(code, { seeds: 4 });
  const env = { envId: 'd', jobId: 'd', iteration: 0, code, codeHash: r.codeHash, spec: r.spec, family: 'unknown', parents: [], validation: { ms: 0 } } as unknown as AcceptedEnv;
  const t0 = performance.now();
  const eps = await Promise.all(planEpisodes({ env, k: 8, seedBase: 5000 } as any).map((p) => playEpisode(env, p, { policy, sandbox, options: loop }, 'x')));
  console.log(f, ((performance.now() - t0) / 1000).toFixed(1), 's');
  for (const e of eps.slice(0, 4).concat(eps.slice(8, 10))) console.log(e.hinted ? 'H' : 'N', e.return, JSON.stringify(e.turns.map((t: any) => t.text)));
  console.log('mean n', eps.filter(e=>!e.hinted).reduce((s,e)=>s+e.return,0)/8, 'h', eps.filter(e=>e.hinted).reduce((s,e)=>s+e.return,0)/8);
}
await policy.close(); await sandbox.close();
