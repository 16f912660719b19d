import { readFileSync } from 'node:fs';
import { planEpisodes, playEpisode } from '../actors/agent/index.js';
import { PolicyService, validateLoopOptions, type AcceptedEnv } from '../actors/loop/index.js';
import { knobsOf, replaceSpans } from '../actors/designer/index.js';
import { repoPath } from '../runtime/paths.js';
import { SandboxPool } from '../sandbox/index.js';
const loop = validateLoopOptions({});
const sandbox = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
const policy = await PolicyService.open({ policy: { ...loop.policy, checkpoint: repoPath('model','checkpoints','base'), missingCheckpoint: 'fail', weightSync: false }, conn: null });
// args: file KNOB=v,KNOB=v ...
const [f, ...sets] = process.argv.slice(2);
const base = readFileSync(f!, 'utf8');
for (const s of sets) {
  const kv = Object.fromEntries(s.split(',').filter(Boolean).map((p) => p.split('=')));
  const code = replaceSpans(base, knobsOf(base).filter((k) => k.name in kv).map((k) => ({ start: k.start, end: k.end, text: kv[k.name] })));
  const r = await sandbox.validate(code, { seeds: 8 });
  if (!r.ok) { console.log(s, 'INVALID', r.failed); continue; }
  const env = { envId: 'd', jobId: 'd', iteration: 0, code, codeHash: r.codeHash, spec: r.spec, family: 'unknown', parents: [], validation: { ms: 0 } } as unknown as AcceptedEnv;
  const eps = await Promise.all(planEpisodes({ env, k: 32, seedBase: 7000 } as any).map((p) => playEpisode(env, p, { policy, sandbox, options: loop }, 'x')));
  const m = (h: boolean) => (eps.filter(e=>e.hinted===h).reduce((a,e)=>a+e.return,0)/32).toFixed(2);
  const sd = (h: boolean) => eps.filter(e=>e.hinted===h && e.return > 0 && e.return < 1).length;
  console.log(s.padEnd(30), 'n', m(false), 'h', m(true), 'partial', sd(false), eps.filter(e=>!e.hinted).slice(0,3).map((e:any)=>e.turns.map((t:any)=>t.text).join('|')).join(' ; '));
}
await policy.close(); await sandbox.close();
