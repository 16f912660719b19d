// `spade eval` apart from its command line: validates every module of a suite once (the sandbox's pipeline, as the
// loop validates a designer's module), then plays the valid ones with each checkpoint in turn on the same seeds, and
// builds the report (report.ts). Invalid modules are listed, never played; faults are counted, never fatal.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { validateLoopOptions, type LoopOptions, type LoopOptionsInput } from '../actors/loop/index.js';
import { PolicyService } from '../actors/loop/policy/index.js';
import { SandboxPool, type SandboxOptions } from '../sandbox/index.js';
import { EvalCheckpointError, EvalOptionsError } from './errors.js';
import { playSuite, type PlayableEnv, type PlayProgress, type PlaySuiteResult } from './play.js';
import { buildReport, type EvalReport } from './report.js';
import { loadSuite } from './suite.js';

export interface EvalOptions {
  checkpoints: string[];
  suite: string;
  /** Seeds per environment and arm (seeds firstSeed .. firstSeed + seeds - 1, the same for every checkpoint). */
  seeds?: number;
  /** Far from the validation seeds (1..) and the warm start's, so the instances are unseen. */
  firstSeed?: number;
  /** Play the hinted arm too. */
  hint?: boolean;
  /** Agent sampling temperature; default the loop's (loop.agent.temperature). */
  temperature?: number;
  /** Loop options to take the agent and policy settings from (default: the loop's defaults). */
  loop?: LoopOptionsInput;
  sandbox?: SandboxOptions;
  /** Episodes in flight; default 2 × loop.policy.maxBatch. */
  concurrency?: number;
  /** Bootstrap replicates and seed. */
  resamples?: number;
  bootstrapSeed?: number;
  log?: (line: string) => void;
  onProgress?: (checkpoint: string, p: PlayProgress) => void;
}

export const DEFAULT_EVAL_SEEDS = 16;
export const DEFAULT_FIRST_SEED = 1001;

export interface EvalRun {
  report: EvalReport;
  /**
   * Per checkpoint: turns played, wall seconds, and CPU seconds of the whole process (all threads) while playing; on
   * shared cores turns per CPU second is the figure that compares runs made under different loads.
   */
  timing: { checkpoint: string; turns: number; seconds: number; cpuSeconds: number }[];
  /** Per checkpoint (in order), per environment key: the returns of each seed, for statistics across reports
   *  (the experiment's seed-paired differences between arms). */
  returns: { checkpoint: string; envs: Record<string, { noHint: number[]; hint: number[] | null }> }[];
}

function positive(field: string, v: number | undefined, min = 1): void {
  if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) throw new EvalOptionsError(field, `an integer ≥ ${min}`, v);
}

export async function runEval(o: EvalOptions): Promise<EvalRun> {
  if (!Array.isArray(o.checkpoints) || o.checkpoints.length === 0) throw new EvalOptionsError('checkpoints', 'at least one checkpoint directory', o.checkpoints);
  positive('seeds', o.seeds);
  positive('firstSeed', o.firstSeed, 0);
  positive('concurrency', o.concurrency);
  const loop: LoopOptions = validateLoopOptions(o.loop ?? {});
  if (o.temperature !== undefined) {
    if (!(Number.isFinite(o.temperature) && o.temperature >= 0)) throw new EvalOptionsError('temperature', 'a number ≥ 0', o.temperature);
    loop.agent = { ...loop.agent, temperature: o.temperature };
  }
  // Before the (slow) validation: a mistyped checkpoint should fail at once.
  for (const ck of o.checkpoints) if (!existsSync(join(resolve(ck), 'config.json'))) throw new EvalCheckpointError(`checkpoint ${ck}: no config.json in ${resolve(ck)}`, ck);
  const log = o.log ?? (() => undefined);
  const seedCount = o.seeds ?? DEFAULT_EVAL_SEEDS;
  const first = o.firstSeed ?? DEFAULT_FIRST_SEED;
  const seeds = Array.from({ length: seedCount }, (_, i) => first + i);
  const hint = o.hint ?? true;
  const suite = loadSuite(o.suite);
  const workers = Math.max(1, Math.min(4, availableParallelism() - 1));
  // Longer call limits than the loop's 50 ms (as scripts/eval-agent.ts had): on loaded shared cores a slow call is the
  // machine's, and an eval must not mark a module invalid or an episode faulted for it.
  const sandbox = new SandboxPool({ workers, callTimeoutMs: 200, wallClockKillMs: 5000, ...o.sandbox });
  try {
    const reports = await Promise.all(suite.modules.map((m) => sandbox.validate(m.code, { seeds: loop.designer.validationSeeds })));
    const invalid: Record<string, string> = {};
    const playable: PlayableEnv[] = [];
    const keys = new Set<string>();
    suite.modules.forEach((m, i) => {
      const r = reports[i]!;
      if (!r.ok || !r.spec) {
        const bad = r.stages.find((s) => !s.ok);
        invalid[m.file] = `${r.failed ?? bad?.stage ?? 'unknown'}: ${bad?.detail ?? 'failed'}`;
        return;
      }
      const key = keys.has(r.spec.name) ? `${r.spec.name} (${m.file})` : r.spec.name;
      keys.add(key);
      playable.push({ key, file: m.file, family: m.family, code: m.code, codeHash: r.codeHash, spec: r.spec });
    });
    log(`eval: ${suite.modules.length} modules in ${suite.dir}: ${playable.length} valid, ${Object.keys(invalid).length} invalid`);
    const played: PlaySuiteResult[] = [];
    const timing: EvalRun['timing'] = [];
    for (const ck of o.checkpoints) {
      const dir = resolve(ck);
      let policy: PolicyService;
      try {
        policy = await PolicyService.open({ policy: { ...loop.policy, checkpoint: dir, missingCheckpoint: 'fail', weightSync: false }, conn: null });
      } catch (err) {
        throw new EvalCheckpointError(`checkpoint ${ck}: ${(err as Error).message}`, ck, err);
      }
      try {
        const cpu0 = process.cpuUsage();
        const r = await playSuite(playable, { policy, sandbox, options: loop }, {
          seeds, hint, concurrency: o.concurrency ?? 2 * loop.policy.maxBatch, onProgress: (p) => o.onProgress?.(ck, p),
        });
        played.push(r);
        const cpu = process.cpuUsage(cpu0);
        timing.push({ checkpoint: ck, turns: r.turns, seconds: r.seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
      } finally {
        await policy.close();
      }
    }
    const report = buildReport({
      suite: o.suite, seeds, temperature: loop.agent.temperature, hint, envs: playable, invalid,
      checkpoints: o.checkpoints.map((c, i) => ({ checkpoint: c, played: played[i]!.envs })),
      bootstrap: { ...(o.resamples !== undefined ? { resamples: o.resamples } : {}), ...(o.bootstrapSeed !== undefined ? { seed: o.bootstrapSeed } : {}) },
    });
    const returns = o.checkpoints.map((checkpoint, i) => ({
      checkpoint,
      envs: Object.fromEntries([...played[i]!.envs].map(([k, r]) => [k, { noHint: [...r.noHint], hint: r.hint ? [...r.hint] : null }])),
    }));
    return { report, timing, returns };
  } finally {
    await sandbox.close();
  }
}
