// Synchronous data-parallel training over the learner group: one update is one group round. Members exchange their
// round metadata (per-role token counts, trajectory ids, the hash of the weights they start from), each computes the
// gradient of the group's loss on its own share (token means over the whole group's tokens), the gradients are summed
// over the bus (reduce.ts) in sorted host order, and every member takes the same AdamW step: the same bits in,
// the same bits out, checked by the weight hashes at the start of the next round. A member with no data takes part
// with an empty contribution, so all members stay in lockstep.
import { noUpdateStats, type UpdateStats } from '../policy-trainer.js';
import { ROLES, roleTokens, type Role, type Row } from '../rows.js';
import type { TrainerHandle } from '../trainer-thread.js';
import type { GroupReduce } from './reduce.js';
import { LearnerStateError } from '../errors.js';
import { GroupDivergedError, GroupOutOfSyncError } from './errors.js';

/** What one group round did, beside the member's own update statistics. */
export interface GroupRoundStats {
  round: number;
  /** Members whose gradients the round summed (sorted). */
  members: string[];
  /** Trajectories applied by the round: those of the members in the final part's commit. */
  ids: string[];
  /** This member's forward/backward time, and the time spent in exchanges (waiting for the others included). */
  computeMs: number;
  commMs: number;
  /** Bytes this member pushed in the round. */
  bytesSent: number;
  /** sha256 of the weights after the round (every member's must be the same). */
  hash: string;
}

export type GroupUpdateStats = UpdateStats & { group: GroupRoundStats };

interface Meta {
  norm: Record<Role, number>;
  ids: string[];
  hash: string;
}

const encodeJson = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const decodeJson = <T>(b: Uint8Array): T => JSON.parse(new TextDecoder().decode(b)) as T;

/**
 * A learner's trainer, on whichever thread it runs (trainer-thread.ts), whose every update is a group round: the
 * trainer computes each epoch's gradients and applies the group's sum; this side exchanges them over the bus.
 * Rounds are one at a time, and it keeps no queue for them: the learner's logic emits one `train` at a time (its
 * `training` phase), performed on the logic driver (runtime/logic-driver.ts); a round asked for while one runs is refused.
 */
export class GroupTrainer {
  /** The round in progress, if any. */
  private running: number | null = null;

  private constructor(readonly trainer: TrainerHandle, readonly group: GroupReduce, private round_: number, private hash: string) {}

  /** `round`: group rounds already in `trainer`'s weights (0 for a fresh group). */
  static async start(trainer: TrainerHandle, group: GroupReduce, round: number): Promise<GroupTrainer> {
    return new GroupTrainer(trainer, group, round, await trainer.hash());
  }

  /** Group rounds applied to these weights. */
  get round(): number {
    return this.round_;
  }

  get weightsHash(): string {
    return this.hash;
  }

  /** One group round with `rows` as this member's share (none: an empty contribution). `ids` default to the rows'. */
  async update(rows: readonly Row[], norm: Record<Role, number> = roleTokens(rows), ids?: string[]): Promise<GroupUpdateStats> {
    const hostId = this.group.options.hostId;
    if (this.running !== null) throw new LearnerStateError(`${hostId}: a group round was asked for while round ${this.running} runs: rounds are one at a time`, { round: this.running });
    this.running = this.round_ + 1;
    try {
      return await this.round1(rows, norm, ids ?? [...new Set(rows.map((r) => r.trajId))]);
    } finally {
      this.running = null;
    }
  }

  private async round1(rows: readonly Row[], norm: Record<Role, number>, ids: string[]): Promise<GroupUpdateStats> {
    const r = this.round_ + 1;
    const sent0 = this.group.bytesSent;
    let commMs = 0, computeMs = 0;
    const meta = await this.group.exchange(r, 'meta', encodeJson({ norm, ids, hash: this.hash } satisfies Meta));
    commMs += meta.ms;
    const metas = meta.contributions.map((b) => decodeJson<Meta>(b));
    const differ = meta.members.filter((_, i) => metas[i]!.hash !== this.hash);
    if (differ.length > 0) {
      throw new GroupDivergedError(`round ${r}: the weights of ${differ.join(', ')} differ from ${this.group.options.hostId}'s (sha256 ${this.hash.slice(0, 12)}…)`, { round: r, members: differ });
    }
    const global = { designer: 0, agent: 0 };
    for (const m of metas) for (const role of ROLES) global[role] += m.norm[role];
    let members = meta.members;
    let stats: UpdateStats | null = null;
    for (let epoch = 0; epoch < this.trainer.epochs; epoch++) {
      const t0 = performance.now();
      const local = rows.length > 0 ? await this.trainer.epochGradients(rows, global, epoch) : null;
      computeMs += performance.now() - t0;
      const mine = local ? new Uint8Array(local.grads.buffer, local.grads.byteOffset, local.grads.byteLength) : new Uint8Array(0);
      const res = await this.group.exchange(r, `g${epoch}`, mine, members);
      commMs += res.ms;
      members = res.members;
      const t1 = performance.now();
      const grads = this.sum(res.contributions);
      const step = grads === null ? null : await this.trainer.apply(grads);
      computeMs += performance.now() - t1;
      stats ??= {
        ...(local?.stats ?? noUpdateStats(0)), gradNorm: step?.gradNorm ?? 0, lr: step?.lr ?? 0, optimizerStep: this.trainer.step, computeMs: 0,
      };
    }
    this.round_ = r;
    this.hash = await this.trainer.hash();
    const applied = meta.members.flatMap((h, i) => (members.includes(h) ? metas[i]!.ids : []));
    // Every member records the round's ids (the same list: the committed member sets are the group's), before it can
    // go on or publish. A member restarting from the group's state reads them for every round it missed; were only the
    // first member to write them, a round whose first member died right after the commit would leave no record, and
    // that member's own trajectories (never acked) would be applied a second time when they come back to the joiner.
    await this.group.recordIds(r, applied);
    await this.group.appliedRound(r, members);
    // The round's first member (the one that publishes) prunes the bucket's old rounds; a failed prune costs nothing
    // but space, so it is reported and the round stands.
    if (members[0] === this.group.options.hostId) await this.group.prune().catch((err: Error) => this.group.options.log(`learner group: pruning old rounds failed: ${err.message}`));
    return {
      ...stats!, optimizerStep: this.trainer.step, computeMs,
      group: { round: r, members, ids: applied, computeMs, commMs, bytesSent: this.group.bytesSent - sent0, hash: this.hash },
    };
  }

  /** Sum of the contributions (gradient vectors) in their (sorted host) order, empty ones counting as zero; null when all are empty. */
  private sum(contributions: Uint8Array[]): Float32Array | null {
    const full = contributions.filter((c) => c.length > 0);
    if (full.length === 0) return null;
    const acc = new Float32Array(this.trainer.size);
    const bad = full.find((c) => c.length !== acc.byteLength);
    if (bad) throw new GroupOutOfSyncError(`a gradient of ${bad.length} bytes reached ${this.group.options.hostId}, this model's take ${acc.byteLength}`, { bytes: bad.length });
    for (const c of full) {
      // Copied to an aligned buffer when the chunk assembly is not 4-byte aligned.
      const v = c.byteOffset % 4 === 0 ? new Float32Array(c.buffer, c.byteOffset, c.length / 4) : new Float32Array(c.slice().buffer);
      for (let i = 0; i < acc.length; i++) acc[i]! += v[i]!;
    }
    return acc;
  }
}
