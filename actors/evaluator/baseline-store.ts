// Persists the designer baseline in the policy KV bucket, updated with compare-and-set so that evaluator
// replicas on several hosts never lose each other's updates, and a restart continues the same baseline.
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { KV, Kvm } from '@nats-io/kv';
import { BUCKETS, POLICY_KEYS } from '../../runtime/subjects.js';
import { EMPTY_BASELINE, baselineStep, type BaselineState, type BaselineStep } from './designer-baseline.js';
import { BaselineStoreError } from './errors.js';
import type { ResolvedEvaluatorOptions } from './options.js';

/** Key of the baseline in BUCKETS.policy (the policy watcher only reads the `version` key). */
export const BASELINE_KEY = POLICY_KEYS.designerBaseline;

const isCasLoss = (err: unknown): boolean =>
  err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);

function parse(bytes: Uint8Array): BaselineState {
  const v = JSON.parse(new TextDecoder().decode(bytes)) as Partial<BaselineState>;
  if (typeof v.mean !== 'number' || typeof v.variance !== 'number' || !Number.isInteger(v.count) || !Array.isArray(v.recent))
    throw new BaselineStoreError(`${BUCKETS.policy}/${BASELINE_KEY} is not a baseline state`, { key: BASELINE_KEY });
  return v as BaselineState;
}

export class BaselineStore {
  private kv: Promise<KV> | null = null;

  constructor(private readonly kvm: Kvm, private readonly options: ResolvedEvaluatorOptions) {}

  async read(): Promise<BaselineState> {
    const e = await (await this.open()).get(BASELINE_KEY);
    return e && e.operation === 'PUT' && e.value.length > 0 ? parse(e.value) : EMPTY_BASELINE;
  }

  /** Applies one reward: read, step, compare-and-set; on a lost race re-read and step again. */
  async step(batchId: string, reward: number): Promise<BaselineStep> {
    const kv = await this.open();
    for (let attempt = 0; ; attempt++) {
      const e = await kv.get(BASELINE_KEY);
      const present = e !== null && e.operation === 'PUT' && e.value.length > 0;
      const state = present ? parse(e.value) : EMPTY_BASELINE;
      const result = baselineStep(state, batchId, reward, this.options);
      if (result.next === state) return result;
      const data = new TextEncoder().encode(JSON.stringify(result.next));
      try {
        if (e === null) await kv.create(BASELINE_KEY, data);
        else await kv.update(BASELINE_KEY, data, e.revision);
        return result;
      } catch (err) {
        if (!isCasLoss(err) || attempt >= 50) throw new BaselineStoreError(`cannot write ${BUCKETS.policy}/${BASELINE_KEY}: ${(err as Error).message}`, { key: BASELINE_KEY }, err);
      }
    }
  }

  private open(): Promise<KV> {
    this.kv ??= this.kvm.open(BUCKETS.policy).catch((err: unknown) => {
      this.kv = null;
      throw new BaselineStoreError(`cannot open KV bucket ${BUCKETS.policy}: ${(err as Error).message}`, {}, err);
    });
    return this.kv;
  }
}
