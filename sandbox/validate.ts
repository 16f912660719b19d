// The validation pipeline: parse → contract → determinism → limits → return range → termination → probes →
// oracle → hint leak. Runs inside a worker; each failure names its stage and carries the typed error.
import { CONSTANT_ACTIONS, randomAction, stressAction, vocabularyActions } from './agents.js';
import { playEpisode, replayEpisode, type EpisodeRecord, type Policy } from './episode.js';
import {
  EnvContract, EnvError, EnvHintLeak, EnvMemory, EnvNondeterministic, EnvReturnRange, EnvStack, EnvSyntax, EnvTimeout,
  toWireError, truncateValue,
} from './errors.js';
import { hintLeaks } from './hint-leak.js';
import { hintProbeActions, hintProbeNames } from './hint-probe.js';
import { EnvInstance } from './instance.js';
import { makeRandom } from './prng.js';
import type { QuickJsHost } from './quickjs-host.js';
import { checkSpec, type EnvSpec } from './spec.js';
import {
  DEFAULT_VALIDATE_OPTIONS, type StageReport, type ValidateOptions, type ValidationReport, type ValidationStage,
  type ValidationStats,
} from './validation-report.js';

/** Which stage a typed error belongs to, whatever stage was running when it surfaced. */
function stageOf(err: unknown, current: ValidationStage): ValidationStage {
  if (err instanceof EnvTimeout || err instanceof EnvMemory || err instanceof EnvStack) return 'limits';
  if (err instanceof EnvReturnRange) return 'return-range';
  if (err instanceof EnvSyntax) return 'parse';
  if (err instanceof EnvContract) return 'contract';
  if (err instanceof EnvNondeterministic) return 'determinism';
  if (err instanceof EnvHintLeak) return 'hint-leak';
  return current;
}

const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const fmt = (x: number): string => x.toFixed(3);

class Validation {
  readonly stages: StageReport[] = [];
  readonly stats: ValidationStats = {
    episodes: 0, steps: 0, randomMean: null, constantMean: null, constantAction: null, oracleMean: null, oracleWinRate: null,
    maxCallMs: 0, endedByEnv: null, hintProbeMean: null,
  };
  spec: EnvSpec | null = null;
  private readonly started = performance.now();
  private readonly episodes: EpisodeRecord[] = [];
  private readonly o: Required<ValidateOptions>;

  constructor(private readonly host: QuickJsHost, private readonly code: string, opts: ValidateOptions) {
    this.o = { ...DEFAULT_VALIDATE_OPTIONS, ...opts };
  }

  private seeds(): number[] {
    return Array.from({ length: this.o.seeds }, (_, i) => this.o.firstSeed + i);
  }

  instance(): EnvInstance {
    const inst = new EnvInstance(this.host, this.code);
    try {
      this.spec = checkSpec(inst.rawSpec, this.host.options.maxTurns);
    } catch (err) {
      inst.dispose();
      throw err;
    }
    inst.maxTurns = this.spec.maxTurns;
    return inst;
  }

  episode(seed: number, policy: Policy): EpisodeRecord {
    const budget = this.host.options.validationBudgetMs;
    if (performance.now() - this.started > budget) {
      throw new EnvTimeout(`validation exceeded its budget of ${budget} ms`, { stage: 'validation' });
    }
    const inst = this.instance();
    try {
      const rec = playEpisode(inst, seed, policy);
      this.record(rec);
      return rec;
    } finally {
      inst.dispose();
    }
  }

  record(rec: EpisodeRecord): void {
    this.episodes.push(rec);
    this.stats.episodes++;
    this.stats.steps += rec.turns;
    this.stats.maxCallMs = Math.max(this.stats.maxCallMs, Math.round(rec.maxCallMs * 100) / 100);
  }

  randomPolicy(seed: number, salt: number): Policy {
    const random = makeRandom(seed * 7919 + salt);
    return (obs) => randomAction(obs, random);
  }

  run(stage: ValidationStage, body: () => string | undefined): void {
    const t0 = performance.now();
    const detail = body();
    this.stages.push({ stage, ok: true, ms: Math.round((performance.now() - t0) * 100) / 100, ...(detail ? { detail } : {}) });
  }

  fail(stage: ValidationStage, detail: string, error?: EnvError): never {
    throw new StageFailure(stage, detail, error);
  }

  parse(): string {
    const inst = new EnvInstance(this.host, this.code);
    inst.dispose();
    return 'module evaluated';
  }

  contract(): string {
    const inst = this.instance();
    inst.dispose();
    const rec = this.episode(this.o.firstSeed, this.randomPolicy(this.o.firstSeed, 1));
    return `spec ok (${this.spec!.name}, maxTurns ${this.spec!.maxTurns}); a random episode ran ${rec.turns} turns`;
  }

  determinism(): string {
    const seed = this.o.firstSeed + 1;
    const first = this.episode(seed, this.randomPolicy(seed, 2));
    const inst = this.instance();
    let second: EpisodeRecord;
    try {
      second = replayEpisode(inst, seed, first.actions);
    } finally {
      inst.dispose();
    }
    const n = Math.max(first.transcript.length, second.transcript.length);
    for (let i = 0; i < n; i++) {
      if (first.transcript[i] !== second.transcript[i]) {
        const err = new EnvNondeterministic(`replay diverged at ${i === 0 ? 'reset' : `turn ${i}`}`, {
          stage: i === 0 ? 'reset' : 'step', turn: i, value: truncateValue(`${first.transcript[i]} vs ${second.transcript[i]}`),
        });
        this.fail('determinism', err.message, err);
      }
    }
    return `seed ${seed}: ${first.turns} turns replayed identically`;
  }

  limits(): string {
    const max = this.host.options.maxActionChars;
    for (const seed of this.seeds().slice(0, 2)) this.episode(seed, (_obs, turn) => stressAction(turn, max));
    return `max call ${fmt(this.stats.maxCallMs)} ms under a limit of ${this.host.options.callTimeoutMs} ms`;
  }

  returnRange(): string {
    for (const seed of this.seeds()) {
      for (let k = 0; k < this.o.randomEpisodesPerSeed; k++) this.episode(seed, this.randomPolicy(seed, 10 + k));
    }
    const totals = this.episodes.map((e) => e.total);
    return `returns in [${fmt(Math.min(...totals))}, ${fmt(Math.max(...totals))}] over ${totals.length} episodes`;
  }

  termination(): string {
    const byEnv = this.episodes.filter((e) => e.endedByEnv).length;
    this.stats.endedByEnv = byEnv / this.episodes.length;
    const longest = Math.max(...this.episodes.map((e) => e.turns));
    return `${byEnv}/${this.episodes.length} episodes ended by the environment, the rest truncated at maxTurns ${this.spec!.maxTurns}; longest ${longest}`;
  }

  probes(): string {
    const randomTotals = this.episodes.slice(-this.o.seeds * this.o.randomEpisodesPerSeed).map((e) => e.total);
    this.stats.randomMean = mean(randomTotals);
    if (this.stats.randomMean >= this.o.probeThreshold) {
      this.fail('probes', `a random-action agent scores ${fmt(this.stats.randomMean)} ≥ ${this.o.probeThreshold}: trivially winnable`);
    }
    let best = -1;
    let bestAction = '';
    for (const action of [...CONSTANT_ACTIONS, ...vocabularyActions(this.code)]) {
      const m = mean(this.seeds().map((seed) => this.constantReturn(seed, action)));
      if (m > best) [best, bestAction] = [m, action];
    }
    this.stats.constantMean = best;
    this.stats.constantAction = bestAction;
    if (best >= this.o.probeThreshold) {
      this.fail('probes', `the constant action ${JSON.stringify(bestAction)} scores ${fmt(best)} ≥ ${this.o.probeThreshold}: trivially winnable`);
    }
    return `random ${fmt(this.stats.randomMean)}, best constant ${JSON.stringify(bestAction)} ${fmt(best)} (< ${this.o.probeThreshold})`;
  }

  oracleEpisodes: EpisodeRecord[] = [];
  /** Returns of constant-action episodes by seed and action: the hint-word probe reuses the probes' episodes. */
  private readonly constant = new Map<string, number>();

  /** The return of playing `action` every turn on `seed` (each pair is played once per validation). */
  constantReturn(seed: number, action: string): number {
    const key = `${seed}\u0000${action}`;
    let r = this.constant.get(key);
    if (r === undefined) this.constant.set(key, (r = this.episode(seed, () => action).total));
    return r;
  }

  oracle(): string {
    if (!this.spec!.hasOracle) {
      // Without a reference policy nothing shows the environment can be won: it would be accepted and earn 0.
      const err = new EnvContract('the module exports no oracle: validation needs one to show the environment can be won', { stage: 'validation' });
      this.fail('oracle', err.message, err);
    }
    this.oracleEpisodes = this.seeds().map((seed) => this.episode(seed, (_o, _t, inst) => inst.oracle()));
    const totals = this.oracleEpisodes.map((e) => e.total);
    this.stats.oracleMean = mean(totals);
    this.stats.oracleWinRate = totals.filter((t) => t >= 0.5).length / totals.length;
    if (this.stats.oracleMean < this.o.oracleThreshold) {
      this.fail('oracle', `the oracle scores ${fmt(this.stats.oracleMean)} < ${this.o.oracleThreshold}`);
    }
    return `oracle mean ${fmt(this.stats.oracleMean)} over ${totals.length} seeds`;
  }

  hintLeak(): string {
    for (const e of this.oracleEpisodes) {
      if (e.total >= 0.5 && hintLeaks(this.hintOf(e), e.actions)) {
        this.fail('hint-leak', `the hint spells out the oracle's winning actions for seed ${e.seed}: ${truncateValue(e.actions.join(' | '))}`);
      }
    }
    const probe = this.hintProbe();
    return `hint does not contain any of ${this.oracleEpisodes.filter((e) => e.total >= 0.5).length} winning sequences; ${probe}`;
  }

  /** The hint an episode's agent would have seen: the instance's own (contract v2) or spec.hint. */
  private hintOf(rec: EpisodeRecord): string {
    return rec.instanceHint ?? this.spec!.hint;
  }

  /** Each hint-word agent (a constant action from the episode's own hint) must score below the probe threshold. */
  private hintProbe(): string {
    const names = hintProbeNames();
    const totals = names.map(() => 0);
    const before = this.stats.episodes;
    let played = 0;
    for (const seed of this.seeds()) {
      const oracleEpisode = this.oracleEpisodes.find((e) => e.seed === seed);
      const hint = oracleEpisode ? this.hintOf(oracleEpisode) : this.spec!.hint;
      const actions = hintProbeActions(hint);
      actions.forEach((action, j) => {
        if (action === null) return;
        totals[j]! += this.constantReturn(seed, action);
        played++;
      });
    }
    const means = totals.map((t) => t / this.o.seeds);
    const best = means.reduce((b, m, j) => (m > means[b]! ? j : b), 0);
    this.stats.hintProbeMean = means[best]!;
    if (means[best]! >= this.o.probeThreshold) {
      const first = this.oracleEpisodes[0];
      const example = hintProbeActions(first ? this.hintOf(first) : this.spec!.hint)[best];
      const err = new EnvHintLeak(
        `an agent playing ${names[best]} as a constant action scores ${fmt(means[best]!)} ≥ ${this.o.probeThreshold}: the hint hands over the answer`,
        { stage: 'validation', value: truncateValue(example ?? '') },
      );
      this.fail('hint-leak', err.message, err);
    }
    return `best hint-word agent (${names[best]}) ${fmt(means[best]!)} < ${this.o.probeThreshold} over ${played} episodes (${played - (this.stats.episodes - before)} reused)`;
  }
}

class StageFailure {
  constructor(readonly stage: ValidationStage, readonly detail: string, readonly error?: EnvError) {}
}

/** Runs every stage in order and stops at the first failure. Non-environment errors (a broken kit) propagate. */
export function validateCode(host: QuickJsHost, code: string, codeHash: string, opts: ValidateOptions = {}): ValidationReport {
  const t0 = performance.now();
  const v = new Validation(host, code, opts);
  const plan: [ValidationStage, () => string | undefined][] = [
    ['parse', () => v.parse()],
    ['contract', () => v.contract()],
    ['determinism', () => v.determinism()],
    ['limits', () => v.limits()],
    ['return-range', () => v.returnRange()],
    ['termination', () => v.termination()],
    ['probes', () => v.probes()],
    ['oracle', () => v.oracle()],
    ['hint-leak', () => v.hintLeak()],
  ];
  let failed: ValidationStage | null = null;
  for (const [stage, body] of plan) {
    const s0 = performance.now();
    try {
      v.run(stage, body);
    } catch (err) {
      const ms = Math.round((performance.now() - s0) * 100) / 100;
      if (err instanceof StageFailure) {
        failed = err.stage;
        v.stages.push({ stage: err.stage, ok: false, ms, detail: err.detail, ...(err.error ? { error: toWireError(err.error) } : {}) });
      } else if (err instanceof EnvError) {
        failed = stageOf(err, stage);
        const during = failed === stage ? '' : ` (during ${stage})`;
        v.stages.push({ stage: failed, ok: false, ms, detail: `${err.name}: ${err.message}${during}`, error: toWireError(err) });
      } else throw err;
      break;
    }
  }
  return {
    ok: failed === null, codeHash, spec: v.spec, stages: v.stages, failed, stats: v.stats,
    ms: Math.round((performance.now() - t0) * 100) / 100,
  };
}
