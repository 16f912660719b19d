// The design job's outcome record: the first attempt of a job to finish claims its verdict in KV (create-only), and
// every later attempt (a redelivery after a kill, a timeout, a nak) publishes that verdict again instead of its own
// new sample's, so env.accepted / env.rejected / rollout.job never disagree about one envId.
import type { KV } from '@nats-io/kv';
import type { Connection } from '../../runtime/connection.js';
import { decode, encode } from '../../runtime/messages.js';
import { BUCKETS } from '../../runtime/subjects.js';
import { isWrongLastSequence } from '../../weight-sync/index.js';
import { DesignOutcomeError } from '../loop/errors.js';
import { memoryKey } from '../loop/memory/memory-entry.js';
import { DesignOutcome, type DesignOutcomeBody } from '../loop/messages.js';

/** The verdict that stands for a job, and whether this attempt's was the one recorded. */
export interface Claimed {
  outcome: DesignOutcomeBody;
  first: boolean;
}

/** What design() needs: claim an outcome, or learn the one an earlier attempt claimed. */
export interface DesignOutcomes {
  claim(outcome: DesignOutcomeBody): Promise<Claimed>;
}

/** Checks what the schema cannot say: exactly one verdict, for the envId it is stored under. */
export function checkOutcome(o: DesignOutcomeBody, envId: string): string | null {
  if ((o.rollout === undefined) === (o.rejected === undefined)) return 'holds both verdicts or neither (exactly one of rollout, rejected)';
  const inner = o.rollout?.env.envId ?? o.rejected?.envId;
  if (o.envId !== envId || inner !== envId) return `is for ${o.envId} (verdict for ${inner}), expected ${envId}`;
  return null;
}

export class OutcomeStore implements DesignOutcomes {
  private constructor(readonly kv: KV) {}

  /** Opens the bucket (created by ensureTopology). */
  static async open(conn: Pick<Connection, 'kvm'>): Promise<OutcomeStore> {
    try {
      return new OutcomeStore(await conn.kvm.open(BUCKETS.designOutcomes));
    } catch (err) {
      throw new DesignOutcomeError(`cannot open KV bucket ${BUCKETS.designOutcomes} (was the topology created?): ${(err as Error).message}`, {}, err);
    }
  }

  /**
   * Writes `outcome` unless its envId already has one (create-only, so of two racing attempts exactly one wins);
   * returns the outcome that stands. Any failure throws DesignOutcomeError: the caller publishes nothing.
   */
  async claim(outcome: DesignOutcomeBody): Promise<Claimed> {
    const { envId } = outcome;
    const bad = checkOutcome(outcome, envId);
    if (bad) throw new DesignOutcomeError(`design outcome ${bad}`, { envId });
    const key = memoryKey(envId);
    try {
      await this.kv.create(key, encode(DesignOutcome, outcome));
      return { outcome, first: true };
    } catch (err) {
      if (!isWrongLastSequence(err)) throw new DesignOutcomeError(`cannot claim the outcome of ${envId} in ${BUCKETS.designOutcomes}: ${(err as Error).message}`, { envId }, err);
    }
    const stored = await this.get(envId);
    if (!stored) throw new DesignOutcomeError(`the outcome of ${envId} was claimed but is gone from ${BUCKETS.designOutcomes} (deleted or expired meanwhile)`, { envId });
    return { outcome: stored, first: false };
  }

  /** The outcome recorded for `envId`, or null when none is. */
  async get(envId: string): Promise<DesignOutcomeBody | null> {
    const where = { bucket: BUCKETS.designOutcomes, envId };
    let e;
    try {
      e = await this.kv.get(memoryKey(envId));
    } catch (err) {
      throw new DesignOutcomeError(`cannot read the outcome of ${envId} from ${BUCKETS.designOutcomes}: ${(err as Error).message}`, where, err);
    }
    if (!e || e.operation !== 'PUT') return null;
    let o: DesignOutcomeBody;
    try {
      o = decode(DesignOutcome, e.value, where);
    } catch (err) {
      throw new DesignOutcomeError(`malformed outcome of ${envId} in ${BUCKETS.designOutcomes}: ${(err as Error).message}`, where, err);
    }
    const bad = checkOutcome(o, envId);
    if (bad) throw new DesignOutcomeError(`the outcome stored for ${envId} ${bad}`, where);
    return o;
  }
}
