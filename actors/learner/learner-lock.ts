// One learner per cluster: a lease in the policy KV bucket. The holder refreshes it with compare-and-set; another
// learner waits (standby) and takes over once the lease is older than its TTL, so two hosts started with
// `--role all` never train and publish versions side by side.
import type { KV } from '@nats-io/kv';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { beat, type Beat } from '../../runtime/beat.js';
import { delay } from '../../runtime/delay.js';
import { POLICY_KEYS } from '../../runtime/subjects.js';
import { LearnerStateError } from './errors.js';

export const LEARNER_LOCK_KEY = POLICY_KEYS.learnerLock;

interface LockValue {
  host: string;
  pid: number;
  ts: number;
}

const isCasLoss = (err: unknown): boolean =>
  err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);

const encodeValue = (v: LockValue): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

function decodeValue(bytes: Uint8Array): LockValue | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes)) as LockValue;
    return typeof v.ts === 'number' && typeof v.host === 'string' ? v : null;
  } catch {
    return null;
  }
}

export class LearnerLock {
  private refresh: Beat | undefined;
  private released = false;

  private constructor(private readonly kv: KV, private readonly host: string, private readonly ttlMs: number, private revision: number) {}

  /**
   * Waits until this host holds the lease (polling every ttl/3), then keeps it fresh. `onLost` is called if a
   * refresh finds the lease taken (this host stalled past the TTL): the caller must stop at once.
   */
  static async acquire(kv: KV, host: string, ttlMs: number, signal: AbortSignal, log: (line: string) => void, onLost: () => void): Promise<LearnerLock> {
    let waiting = false;
    for (;;) {
      const r = await LearnerLock.tryAcquire(kv, host, ttlMs, log, onLost);
      if ('lock' in r) {
        if (waiting) log(`learner: lock acquired by ${host}`);
        return r.lock;
      }
      if (!waiting) log(`learner: another learner (${r.holder}) holds the lock; standing by`);
      waiting = true;
      if (signal.aborted) throw new LearnerStateError('stopped while waiting for the learner lock', { host });
      // A stop ends the wait at once: one more try, then the stop is thrown above.
      await delay(`learner lock (${host}): standby`, Math.max(50, ttlMs / 3), signal);
    }
  }

  /** One attempt: the lease when it is free, expired or already this host's, else who holds it. */
  static async tryAcquire(kv: KV, host: string, ttlMs: number, log: (line: string) => void, onLost: () => void): Promise<{ lock: LearnerLock } | { holder: string }> {
    const value = encodeValue({ host, pid: process.pid, ts: Date.now() });
    const e = await kv.get(LEARNER_LOCK_KEY);
    const held = e && e.operation === 'PUT' ? decodeValue(e.value) : null;
    try {
      let revision: number | null = null;
      if (e === null) revision = await kv.create(LEARNER_LOCK_KEY, value);
      else if (held === null || Date.now() - held.ts > ttlMs || held.host === host) revision = await kv.update(LEARNER_LOCK_KEY, value, e.revision);
      if (revision !== null) {
        const lock = new LearnerLock(kv, host, ttlMs, revision);
        lock.keepFresh(log, onLost);
        return { lock };
      }
    } catch (err) {
      if (!isCasLoss(err)) throw new LearnerStateError(`learner lock: ${(err as Error).message}`, { host }, err);
    }
    return { holder: held?.host ?? 'unknown' };
  }

  private keepFresh(log: (line: string) => void, onLost: () => void): void {
    // A refresh still waiting for its reply when the next is due is not doubled (the beat skips that tick).
    this.refresh = beat(`learner lock (${this.host}): refresh`, Math.max(50, this.ttlMs / 3), () =>
      this.kv.update(LEARNER_LOCK_KEY, encodeValue({ host: this.host, pid: process.pid, ts: Date.now() }), this.revision).then(
        (rev) => void (this.revision = rev),
        async (err: unknown) => {
          if (this.released || !isCasLoss(err)) return; // a transport hiccup: try again next tick
          // A refresh whose reply timed out may still have been written: then the lease is ours at a newer revision.
          // Only a lease another holder wrote is lost (on a busy host this used to stop the only learner for good).
          const mine = await this.ownRevision().catch(() => null);
          if (mine !== null) return void (this.revision = mine);
          if (this.released) return;
          this.refresh?.stop();
          log('learner: lost the learner lock to another host; stopping');
          onLost();
        },
      ), { onError: (err) => log(`learner: ${err.message}`) });
  }

  /** The lease's revision when this process wrote its current value (host and pid), else null. */
  private async ownRevision(): Promise<number | null> {
    const e = await this.kv.get(LEARNER_LOCK_KEY);
    const v = e?.operation === 'PUT' ? decodeValue(e.value) : null;
    return v !== null && v.host === this.host && v.pid === process.pid ? e!.revision : null;
  }

  /** Gives the lease up so a standby takes over without waiting for the TTL. */
  async release(): Promise<void> {
    this.released = true;
    this.refresh?.stop();
    await this.kv.delete(LEARNER_LOCK_KEY, { previousSeq: this.revision }).catch(() => undefined);
  }
}
