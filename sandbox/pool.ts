// SandboxPool: the API the sandbox actor calls. Routes each episode to one worker lane (affinity keeps its live
// instance warm; any lane can replay it), resends code a worker lacks, kills overrunning calls, retries once
// when a worker dies, and rebuilds typed errors.
import { nowMs } from './call-watch.js';
import {
  EnvTimeout, SandboxClosed, isEnvError, toWireError, type EnvError, SandboxCodeMissing, SandboxRequestError, SandboxWorkerDied, fromWireError,
} from './errors.js';
import { codeHash } from './hash.js';
import { Lane } from './lane.js';
import { Lru } from './lru.js';
import { validateSandboxOptions, type ResolvedSandboxOptions, type SandboxOptions } from './options.js';
import type { ValidateOptions, ValidationReport } from './validation-report.js';
import type { EpisodeRef, ResetResult, StepRequest, StepResult, WorkerTask } from './wire.js';
import { addTotals, type PhaseTotals } from '../runtime/phase-meter.js';
import { addPhaseSource } from '../runtime/work-profile.js';

export interface PoolStats {
  workers: number;
  pending: number;
  workerStarts: number;
  watchdogKills: number;
  retries: number;
  recycles: number;
  cachedCodes: number;
}

type TaskBody = { kind: 'reset'; seed: number; episodeId?: string }
  | { kind: 'step'; seed: number; actions: string[]; episodeId?: string }
  | { kind: 'validate'; options: ValidateOptions };

function killedReport(hash: string, err: EnvError, ms: number): ValidationReport {
  const detail = `${err.name}: ${err.message}`;
  return {
    ok: false, codeHash: hash, spec: null, failed: 'limits', ms: Math.round(ms),
    stages: [{ stage: 'limits', ok: false, ms: Math.round(ms), detail, error: toWireError(err) }],
    stats: {
      episodes: 0, steps: 0, randomMean: null, constantMean: null, constantAction: null, oracleMean: null, oracleWinRate: null,
      maxCallMs: Math.round(ms), endedByEnv: null, hintProbeMean: null,
    },
  };
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class SandboxPool {
  readonly options: ResolvedSandboxOptions;
  private readonly lanes: Lane[];
  private readonly codes: Lru<string, string>;
  private readonly hashes: Lru<string, string>;
  private readonly watchdog: NodeJS.Timeout;
  private seq = 0;
  private retries = 0;
  private recycles = 0;
  private closed = false;
  /** Takes the worker threads' busy time out of the host's profile (runtime/work-profile.ts). */
  private readonly unprofile: () => void;

  constructor(opts: SandboxOptions = {}) {
    this.options = validateSandboxOptions(opts);
    this.codes = new Lru(this.options.codeCachePool);
    this.hashes = new Lru(this.options.codeCachePool);
    this.lanes = Array.from({ length: this.options.workers }, (_, i) => new Lane(i, this.options));
    const period = Math.max(5, Math.floor(this.options.wallClockKillMs / 4));
    this.watchdog = setInterval(() => {
      const now = nowMs();
      for (const lane of this.lanes) lane.checkWatchdog(now);
    }, period);
    this.watchdog.unref();
    this.unprofile = addPhaseSource(() => this.lanes.reduce<PhaseTotals>((a, l) => addTotals(a, l.phases), {}));
  }

  /** The content hash of a module (sha256 hex), the key of every cache. */
  static hash(code: string): string {
    return codeHash(code);
  }

  /** Remembers code in the pool's cache so later requests may name it by hash only; returns the hash. */
  register(code: string): string {
    let hash = this.hashes.get(code);
    if (hash === undefined) {
      hash = codeHash(code);
      this.hashes.set(code, hash);
    }
    this.codes.set(hash, code);
    return hash;
  }

  /** Runs the validation pipeline on one module. Environment faults end up in the report, never thrown. */
  async validate(code: string, options: ValidateOptions = {}): Promise<ValidationReport> {
    if (typeof code !== 'string') throw new SandboxRequestError('code must be a string', 'code');
    const hash = this.register(code);
    const t0 = performance.now();
    try {
      return (await this.dispatch(this.leastBusy(), hash, code, { kind: 'validate', options }, true)) as ValidationReport;
    } catch (err) {
      // The watchdog killed a call: the environment is at fault, so it is a failed report, not a thrown error.
      if (!isEnvError(err)) throw err;
      return killedReport(hash, err, performance.now() - t0);
    }
  }

  /** Starts an episode (and keeps it live under episodeId); returns the first observation and the spec. */
  async reset(req: EpisodeRef): Promise<ResetResult> {
    const { hash, code } = this.resolve(req);
    const body: TaskBody = { kind: 'reset', seed: req.seed, ...(req.episodeId !== undefined ? { episodeId: req.episodeId } : {}) };
    return (await this.dispatch(this.route(req.episodeId), hash, code, body, false)) as ResetResult;
  }

  /** Applies the last of `actions` to the episode (code, seed, actions[0..n-2]); stateless by replay. */
  async step(req: StepRequest): Promise<StepResult> {
    const { hash, code } = this.resolve(req);
    const body: TaskBody = { kind: 'step', seed: req.seed, actions: req.actions, ...(req.episodeId !== undefined ? { episodeId: req.episodeId } : {}) };
    return (await this.dispatch(this.route(req.episodeId), hash, code, body, false)) as StepResult;
  }

  stats(): PoolStats {
    return {
      workers: this.lanes.length,
      pending: this.lanes.reduce((a, l) => a + l.pending, 0),
      workerStarts: this.lanes.reduce((a, l) => a + l.starts, 0),
      watchdogKills: this.lanes.reduce((a, l) => a + l.kills, 0),
      retries: this.retries,
      recycles: this.recycles,
      cachedCodes: this.codes.size,
    };
  }

  /** Terminates one worker thread (operations and tests); Piscina replaces it and in-flight calls are retried. */
  async terminateWorker(index: number): Promise<void> {
    await this.lanes[index % this.lanes.length]!.terminate();
  }

  /** The thread id serving each lane (tests use it to prove cross-worker replay). */
  threadIds(): (number | undefined)[] {
    return this.lanes.map((l) => l.threadId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    await Promise.all(this.lanes.map((l) => l.close()));
    this.unprofile();
  }

  private resolve(req: EpisodeRef): { hash: string; code: string | undefined } {
    if (req.code !== undefined) {
      if (typeof req.code !== 'string') throw new SandboxRequestError('code must be a string', 'code');
      const hash = this.register(req.code);
      if (req.codeHash !== undefined && req.codeHash !== hash) throw new SandboxRequestError('codeHash does not match code', 'codeHash');
      return { hash, code: req.code };
    }
    if (typeof req.codeHash !== 'string') throw new SandboxRequestError('a request needs codeHash or code', 'codeHash');
    return { hash: req.codeHash, code: this.codes.get(req.codeHash) };
  }

  private route(episodeId: string | undefined): Lane {
    if (episodeId === undefined) return this.leastBusy();
    return this.lanes[fnv1a(episodeId) % this.lanes.length]!;
  }

  private leastBusy(): Lane {
    let best = this.lanes[0]!;
    for (const l of this.lanes) if (l.pending < best.pending) best = l;
    return best;
  }

  private async dispatch(lane: Lane, hash: string, code: string | undefined, body: TaskBody, alwaysCode: boolean): Promise<unknown> {
    let deaths = 0;
    let resent = false;
    for (;;) {
      if (this.closed) throw new SandboxClosed();
      const withCode = code !== undefined && (alwaysCode || resent || !lane.knownHashes.has(hash));
      const seq = ++this.seq;
      const task = { ...body, seq, hash, ...(withCode ? { code } : {}) } as WorkerTask;
      let reply;
      try {
        reply = await lane.run(task);
      } catch (err) {
        if (this.closed) throw new SandboxClosed();
        const kill = lane.takeKill(seq);
        if (kill) {
          throw new EnvTimeout(`${kill.stage} ran ${kill.ms} ms of wall-clock time; the watchdog terminated its worker`, {
            stage: kill.stage, turn: kill.turn,
          });
        }
        if (++deaths > 1) throw new SandboxWorkerDied(`the worker died twice serving this ${body.kind}`, err);
        this.retries++;
        continue;
      }
      if (reply.recycled) this.recycles++;
      if (reply.ok) {
        if (withCode) {
          if (lane.knownHashes.size >= this.options.codeCachePerWorker) lane.knownHashes.clear();
          lane.knownHashes.add(hash);
        }
        return reply.value;
      }
      const error = fromWireError(reply.error);
      if (error instanceof SandboxCodeMissing && code !== undefined && !resent) {
        lane.knownHashes.delete(hash);
        resent = true;
        continue;
      }
      throw error;
    }
  }
}
