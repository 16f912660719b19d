// A restart policy, as a supervisor's in Erlang/OTP or XState: a failure of the supervised thing is worth a restart or
// not, restarts are counted up to a maximum, and whoever supervises says what giving up means (a host asked to stop).
// The supervisor only decides and counts: what a restart builds and how a failure is reported are the caller's.
import { SupervisorError } from './errors.js';

/** Why supervision ended: a failure not worth a restart, one past the last restart, or a restart that failed itself. */
export type GiveUpReason = 'permanent' | 'exhausted' | 'restart-failed';

export interface GiveUp {
  reason: GiveUpReason;
  /** The failure that ended it (for 'restart-failed', the restart's own failure). */
  error: Error;
  /** Restarts made before it. */
  restarts: number;
  /** The policy's maximum. */
  maxRestarts: number;
}

export interface SuperviseOptions {
  /** Restarts in all before giving up: an integer ≥ 0. */
  maxRestarts: number;
  /** Whether a failure is worth a restart; any other gives up at once ('permanent'), restarts left or not. */
  restartable(err: Error): boolean;
  /**
   * Builds the replacement: called synchronously from `failed()`, so that what the caller routes to it is replaced at
   * once. Its failure (a rejection or a throw) gives up ('restart-failed').
   */
  restart(restart: number): Promise<unknown>;
  /** Told before each restart: the failure, the restart (from 1) and the maximum. */
  onRestart?(err: Error, restart: number, maxRestarts: number): void;
  /** Told once per failure that ends supervision; the supervisor restarts nothing for it. */
  onGiveUp(end: GiveUp): void;
  /** Once aborted (the supervised thing is being stopped), failures are ignored: neither restarted nor given up on. */
  signal?: AbortSignal;
}

export interface Supervisor {
  /** Reports a failure of the supervised thing: restarts it or gives up, as the policy says. */
  failed(err: Error): void;
  /** The replacement is up: a restart asked for is no longer pending (the caller says when, e.g. before announcing it). */
  up(): void;
  /** True from a failure worth a restart until up() (a failure meanwhile that is not restarted leaves it as it was). */
  readonly pending: boolean;
  /** Restarts made so far. */
  readonly restarts: number;
  /** Resolves once the latest restart has settled (at once when none was made); never rejects. */
  settled(): Promise<void>;
}

/** Starts a restart policy for `what` (named in its errors); a bad `maxRestarts` throws a SupervisorError at once. */
export function supervise(what: string, o: SuperviseOptions): Supervisor {
  const max = o.maxRestarts;
  if (!Number.isSafeInteger(max) || max < 0)
    throw new SupervisorError(`${what}: maxRestarts must be an integer ≥ 0, got ${String(max)}`, { what, field: 'maxRestarts', got: String(max) });
  let restarts = 0;
  let pending = false;
  let restarting: Promise<void> = Promise.resolve();
  const giveUp = (reason: GiveUpReason, error: Error): void => o.onGiveUp({ reason, error, restarts, maxRestarts: max });
  const asError = (e: unknown): Error =>
    e instanceof Error ? e : new SupervisorError(`${what}: a restart failed: ${String(e)}`, { what, thrown: String(e) });
  const start = (n: number): Promise<unknown> => {
    try {
      return o.restart(n);
    } catch (err) {
      return Promise.reject(err);
    }
  };
  return {
    failed(err) {
      if (o.signal?.aborted) return;
      if (!o.restartable(err)) return giveUp('permanent', err);
      if (restarts >= max) return giveUp('exhausted', err);
      restarts++;
      pending = true;
      o.onRestart?.(err, restarts, max);
      restarting = start(restarts).then(() => undefined, (e: unknown) => giveUp('restart-failed', asError(e)));
    },
    up() {
      pending = false;
    },
    get pending() {
      return pending;
    },
    get restarts() {
      return restarts;
    },
    settled: () => restarting,
  };
}
