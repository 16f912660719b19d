// One learner update on onnxruntime: run the training graph's forward half on the minibatch under the current weights
// (log π_θ), turn the per-token objective into dJ/dlogπ, run its backward half for parameter gradients (accumulated
// over micro-batches), and take an AdamW step, `epochs` times. A token mean per role, mixed by role weights: a token of role r weighs
// w_r / (W · N_r), N_r = role r's trained tokens in the minibatch, W = Σ w over the roles present. With `kl`, every
// trained token also carries the penalty −β·k3 to a reference policy (objective.ts klTerm), scored by the same session
// with the reference's weights: one more forward pass per micro-batch. A learner group takes the steps itself: it asks
// for one epoch's gradients as a vector (param-vector.ts) and hands back the group's sum to apply.
import { AdamW, ModelSession, backwardFlops, forwardFlops, packBatch, trainFlops, type AdamWOptions, type AdamWState, type GraphKind, type ResolvedDecoderConfig, type SavedTensors, type TrainBatch } from '../../model/index.js';
import { PhaseMeter, type PhaseTotals } from '../../runtime/phase-meter.js';
import { LearnerStateError, UpdateNormError } from './errors.js';
import { klTerm, tokenTerm, type ObjectiveOptions } from './objective.js';
import { microBatches } from './micro-batches.js';
import { fromVector, toVector, vectorOrder, weightsHash } from './param-vector.js';
import { ROLES, roleOf, roleTokens, rowTokens, type Role, type Row } from './rows.js';
import type { AppliedStep, EpochGradients, GradientStats, UpdateStats } from './update-stats.js';

export { noUpdateStats, type AppliedStep, type EpochGradients, type GradientStats, type RoleUpdateStats, type UpdateStats } from './update-stats.js';

export interface PolicyTrainerOptions extends ObjectiveOptions {
  epochs: number;
  /** Score a row at the temperature it was sampled at (Row.temperature); absent/false: at 1. */
  sampleTemperature?: boolean;
  microBatchTokens: number;
  /** Bound on one pass's attention: rows x padded length² (absent: none); a longer row goes alone. */
  microBatchCells?: number;
  /** What one more pass costs in padded tokens, when cutting micro-batches by length (micro-batches.ts; absent: its default). */
  microBatchPassTokens?: number;
  /** Weight of each role's token mean (absent: 1 each). */
  roleWeights?: Record<Role, number>;
  /** A KL penalty of weight `beta` to the policy with `reference`'s weights (the same architecture); absent: none. */
  kl?: { beta: number; reference: Map<string, Float32Array> };
  /**
   * Two-phase passes (model/two-phase.ts): the forward half gives log π_θ and keeps what the backward half needs, so a
   * micro-batch costs one forward and one backward; false: a scoring pass and then the one-piece training graph,
   * whose forward runs again. Absent: false here; the learner's `batching.twoPhase` defaults to true (docs/loop.md).
   */
  twoPhase?: boolean;
}

/** What a trainer is built from, on whichever thread: its model, the weights and optimizer state it starts from. */
export interface TrainerSetup {
  config: ResolvedDecoderConfig;
  params: Map<string, Float32Array>;
  /** null: fresh moments. */
  optimizer: AdamWState | null;
  adamw: AdamWOptions;
  trainer: PolicyTrainerOptions;
  /** onnxruntime intra-op threads. */
  threads: number;
}

/** The per-token scale of each role: w_r / (W · N_r), 0 for a role without tokens or when every weight present is 0. */
export function roleScales(norm: Record<Role, number>, weights: Record<Role, number> = { designer: 1, agent: 1 }): Record<Role, number> {
  const W = ROLES.reduce((a, r) => a + (norm[r] > 0 ? weights[r] : 0), 0);
  const out = { designer: 0, agent: 0 };
  for (const r of ROLES) out[r] = norm[r] > 0 && W > 0 ? weights[r] / (W * norm[r]) : 0;
  return out;
}

export class PolicyTrainer {
  /** Each row's log π at epoch 0 of the minibatch epochGradients is on, in the rows' order. */
  private proximal: Float32Array[] = [];
  /** Time, tokens and FLOPs of its scoring passes, training passes (forward and backward) and optimizer steps. */
  private readonly meter = new PhaseMeter();

  /** A session over `s.config` on the calling thread, an optimizer from `s.optimizer`, and the trainer over both. */
  static async open(s: TrainerSetup): Promise<PolicyTrainer> {
    // Two-phase scores only the KL reference: without one the scoring graph is not compiled.
    const graphs: GraphKind[] = s.trainer.twoPhase !== true ? ['train', 'score'] : s.trainer.kl ? ['split', 'score'] : ['split'];
    const session = await ModelSession.create(s.config, { graphs, intraOpNumThreads: s.threads, allowSpinning: false });
    const optimizer = new AdamW(s.adamw);
    if (s.optimizer) optimizer.loadState(s.optimizer);
    return new PolicyTrainer(session, s.params, optimizer, s.trainer);
  }

  constructor(
    readonly session: ModelSession,
    readonly weights: Map<string, Float32Array>,
    readonly optimizer: AdamW,
    readonly options: PolicyTrainerOptions,
  ) {}

  get config(): ResolvedDecoderConfig {
    return this.session.config;
  }

  phases(): PhaseTotals {
    return this.meter.snapshot();
  }

  /** One AdamW step, charged to the 'optimizer' phase. */
  private async step(grads: ReadonlyMap<string, Float32Array>): Promise<ReturnType<AdamW['update']>> {
    return this.meter.measure('optimizer', { tokens: 0, flops: 0 }, async () => this.optimizer.update(this.weights, grads));
  }

  /**
   * Optimizer steps (epochs) on one minibatch. `norm`: each role's token-mean denominator, by default the rows'
   * own trained tokens; the learner passes the whole minibatch's, zero-advantage trajectories it skipped included.
   */
  async update(rows: readonly Row[], norm: Record<Role, number> = roleTokens(rows)): Promise<UpdateStats> {
    const t0 = performance.now();
    // Per row: log π at the start of the update, the proximal policy of the 'decoupled' objective.
    const proximal = new Map<Row, Float32Array>();
    let first: GradientStats | null = null;
    let gradNorm = 0, lr = 0, step = this.optimizer.step;
    for (let epoch = 0; epoch < this.options.epochs; epoch++) {
      const g = await this.gradients(rows, proximal, norm);
      first ??= g.stats;
      const res = await this.step(g.grads);
      if (epoch === 0) gradNorm = res.gradNorm;
      lr = res.lr;
      step = res.step;
    }
    return { ...first!, gradNorm, lr, optimizerStep: step, computeMs: performance.now() - t0 };
  }

  /**
   * Epoch `epoch` of an update whose optimizer steps the caller takes (a learner group sums the members' gradients
   * first, then apply()): the gradients of `rows`, not applied. Epoch 0 records the rows' log π as the proximal policy
   * of the later epochs, which must pass the same rows in the same order (on a thread they arrive as copies).
   */
  async epochGradients(rows: readonly Row[], norm: Record<Role, number>, epoch: number): Promise<EpochGradients> {
    if (epoch > 0 && this.proximal.length !== rows.length) {
      throw new LearnerStateError(`epoch ${epoch} of an update over ${rows.length} rows, but epoch 0 was over ${this.proximal.length}`, { epoch });
    }
    const proximal = new Map<Row, Float32Array>(epoch > 0 ? rows.map((r, i) => [r, this.proximal[i]!]) : []);
    const g = await this.gradients(rows, proximal, norm);
    if (epoch === 0) this.proximal = rows.map((r) => proximal.get(r)!);
    return { grads: toVector(g.grads, vectorOrder(this.weights)), stats: g.stats };
  }

  /** One AdamW step with `grads`, a vector in sorted parameter order (the group's sum of epochGradients). */
  async apply(grads: Float32Array): Promise<AppliedStep> {
    const size = [...this.weights.values()].reduce((n, w) => n + w.length, 0);
    if (grads.length !== size) throw new LearnerStateError(`a gradient vector of ${grads.length} elements, this model has ${size} parameters`, { size: grads.length });
    const { gradNorm, lr, step } = await this.step(fromVector(grads, this.weights));
    return { gradNorm, lr, step };
  }

  /** sha256 of the weights (param-vector.ts): equal on every member of a group that agrees bit for bit. */
  hash(): string {
    return weightsHash(this.weights);
  }

  /** Replaces the weights (copied) and the optimizer state: a group member taking the group's state. */
  load(state: { weights: ReadonlyMap<string, Float32Array>; optimizer: AdamWState }): void {
    for (const [k, w] of state.weights) this.weights.set(k, w.slice());
    this.optimizer.loadState(state.optimizer);
  }

  /** A micro-batch's gradients for its dlogp: the backward half of `saved`'s forward, or without it the one-piece graph. */
  private async backward(packed: TrainBatch, saved: SavedTensors | null): Promise<Map<string, Float32Array | Float64Array>> {
    const { batch: B, time: T } = packed;
    if (saved) return this.meter.measure('train', { tokens: B * T, flops: backwardFlops(this.config, B, T) }, () => this.session.backward(saved, packed, this.weights));
    return (await this.meter.measure('train', { tokens: B * T, flops: trainFlops(this.config, B, T) }, () => this.session.train(packed, this.weights))).grads;
  }

  /**
   * Gradients of −Σ_r w_r/(W·N_r)·Σ J over the role's tokens (roleScales), accumulated over micro-batches.
   * `proximal` holds each row's log π from the first call (filled when empty), the reference of the 'decoupled'
   * objective; `norm` the per-role denominators N_r (default: the rows' own tokens).
   */
  async gradients(rows: readonly Row[], proximal = new Map<Row, Float32Array>(), norm: Record<Role, number> = roleTokens(rows)): Promise<{
    grads: Map<string, Float32Array>; stats: GradientStats;
  }> {
    const N = rows.reduce((n, r) => n + rowTokens(r), 0);
    const own = roleTokens(rows);
    for (const r of ROLES) {
      if (!(norm[r] >= own[r])) throw new UpdateNormError(`update norm.${r} must be at least the rows' ${own[r]} ${r} tokens, got ${norm[r]}`, { data: { role: r } });
    }
    const scale = roleScales(norm, this.options.roleWeights);
    const roleLoss = { designer: 0, agent: 0 }, roleNll = { designer: 0, agent: 0 };
    let loss = 0, clipped = 0, truncated = 0, ratioSum = 0, klSum = 0;
    const kl = this.options.kl;
    let grads: Map<string, Float32Array> | null = null;
    for (const mb of microBatches(rows, this.options.microBatchTokens, this.options.microBatchCells, this.options.microBatchPassTokens)) {
      const packed = packBatch(mb.map((r) => {
        const mask = new Array<number>(r.tokens.length - 1).fill(0);
        for (const p of r.positions) mask[p - 1] = 1; // prediction p − 1 scores token p
        return { tokens: r.tokens, mask, ...(this.options.sampleTemperature && r.temperature !== undefined ? { temperature: r.temperature } : {}) };
      }));
      const W = packed.time - 1;
      const cells = packed.batch * packed.time;
      const scoring = { tokens: cells, flops: forwardFlops(this.config, cells, packed.time) };
      // Two-phase: the forward half is the scoring pass ('score'), the backward half the training pass ('train').
      const twoPhase = this.options.twoPhase === true;
      const fwd = twoPhase ? await this.meter.measure('score', scoring, () => this.session.forward(packed, this.weights)) : null;
      const logp = fwd?.logp ?? (await this.meter.measure('score', scoring, () => this.session.score(packed, this.weights))).logp; // (B, T-1)
      const ref = kl ? (await this.meter.measure('score', scoring, () => this.session.score(packed, kl.reference))).logp : null;
      mb.forEach((r, b) => {
        const n = rowTokens(r);
        const role = roleOf(r), c = scale[role];
        let prox = proximal.get(r);
        const fill = prox === undefined;
        if (fill) proximal.set(r, (prox = new Float32Array(n)));
        for (let j = 0; j < n; j++) {
          const at = b * W + r.positions[j]! - 1;
          const lp = logp[at]!;
          if (fill) prox![j] = lp;
          const term = tokenTerm(lp, r.behaviour[j]!, r.advantage, this.options, prox![j]!);
          const pen = ref ? klTerm(lp, ref[at]!, kl!.beta) : { objective: 0, grad: 0, kl: 0 };
          packed.dlogp[at] = -(term.grad + pen.grad) * c; // minimise −Σ c·J
          loss -= (term.objective + pen.objective) * c;
          roleLoss[role] -= (term.objective + pen.objective) / norm[role];
          klSum += pen.kl;
          roleNll[role] -= lp;
          clipped += Number(term.clipped);
          truncated += Number(term.truncated);
          ratioSum += term.ratio;
        }
      });
      const out = await this.backward(packed, fwd?.saved ?? null);
      if (grads === null) grads = new Map([...out].map(([k, g]) => [k, Float32Array.from(g)]));
      else for (const [k, g] of out) {
        const acc = grads.get(k)!;
        for (let i = 0; i < acc.length; i++) acc[i]! += g[i]!;
      }
    }
    return {
      grads: grads!,
      stats: {
        rows: rows.length, tokens: N, processedTokens: rows.reduce((n, r) => n + r.tokens.length, 0),
        loss, clipFraction: clipped / N, tisFraction: truncated / N, meanRatio: ratioSum / N, ...(kl ? { kl: klSum / N } : {}),
        byRole: {
          designer: { tokens: own.designer, norm: norm.designer, loss: roleLoss.designer, entropy: roleNll.designer / own.designer },
          agent: { tokens: own.agent, norm: norm.agent, loss: roleLoss.agent, entropy: roleNll.agent / own.agent },
        },
      },
    };
  }
}
