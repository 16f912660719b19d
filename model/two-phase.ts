// The training graph cut in two at dlogp (graph/split.ts): the forward half returns log-probs, the loss and the
// tensors the backward half reads; the backward half returns parameter gradients for a dlogp chosen after seeing those
// log-probs. The learner's dJ/dlogπ depends on logπ, so without the cut it ran a scoring pass and then the one-piece
// training graph, whose forward is the same work again.
import ort from 'onnxruntime-node';
import { buildTrainingGraph } from './decoder.js';
import type { ResolvedDecoderConfig } from './decoder-config.js';
import { GraphRunner, splitGraph, type RunnerOptions, type Tensor } from './graph/index.js';

/**
 * What a forward pass keeps for its backward pass: onnxruntime tensors that live in this process's heap between
 * the two (the attention probabilities of every layer are the large ones; `bytes` says how much). Opaque to callers.
 */
export interface SavedTensors {
  readonly tensors: Readonly<Record<string, ort.Tensor>>;
  readonly batch: number;
  readonly time: number;
  readonly bytes: number;
}

export interface ForwardResult {
  /** (B, T-1): log-prob of token t+1 given tokens 0..t. */
  logp: Float32Array | Float64Array;
  loss: number;
  saved: SavedTensors;
}

/**
 * Recompute attention scores and probabilities in the backward half from the saved queries and keys rather than save
 * them: at rows of ~1,000 tokens they were 70% of the saved bytes (B x H x T² per layer), and every saved byte is
 * copied out of onnxruntime into a fresh buffer and read back. Sizes are judged at T = 1024: the scores' MatMul is then
 * ~20x its inputs, the projections' ~2x, so only attention is redone.
 */
const ATTENTION_SCORES = { ratio: 4, dims: { B: 1, T: 1024 } };

export class TwoPhaseRunners {
  private constructor(
    private readonly forwardRunner: GraphRunner,
    private readonly backwardRunner: GraphRunner,
    private readonly params: readonly string[],
  ) {}

  static async create(config: ResolvedDecoderConfig, dtype: 'float32' | 'float64', options: RunnerOptions, recompute = true): Promise<TwoPhaseRunners> {
    const t = buildTrainingGraph(config, dtype);
    const backward: Record<string, Tensor> = {};
    for (const [k, v] of Object.entries(t.outputs)) if (k.startsWith('grad.')) backward[k] = v;
    const dlogp = t.graph.inputs.find((i) => i.name === 'dlogp')!;
    const s = splitGraph(t.graph, { forward: { logp: t.outputs['logp']!, loss: t.outputs['loss']! }, backward, seeds: [dlogp], ...(recompute ? { expanding: ATTENTION_SCORES } : {}) }, 'decoder');
    const f = await GraphRunner.create(s.forward, options);
    const b = await GraphRunner.create(s.backward, options).catch(async (err: unknown) => { await f.release(); throw err; });
    return new TwoPhaseRunners(f, b, Object.keys(backward).map((k) => k.slice('grad.'.length)));
  }

  /** `feeds`: tokens, loss_mask, inv_temp and the weights, of a batch of `batch` rows of `time` tokens. */
  async forward(feeds: Record<string, ort.Tensor>, batch: number, time: number): Promise<ForwardResult> {
    const out = await this.forwardRunner.run(feeds);
    const tensors: Record<string, ort.Tensor> = {};
    let bytes = 0;
    for (const [k, v] of Object.entries(out)) {
      if (!k.startsWith('saved.')) continue;
      tensors[k] = v;
      bytes += (v.data as ArrayBufferView).byteLength;
    }
    return { logp: out['logp']!.data as Float32Array, loss: Number(out['loss']!.data[0]), saved: { tensors, batch, time, bytes } };
  }

  /** `feeds`: those of the forward pass plus dlogp; the saved tensors are added here. */
  async backward(saved: SavedTensors, feeds: Record<string, ort.Tensor>): Promise<Map<string, Float32Array | Float64Array>> {
    const out = await this.backwardRunner.run({ ...feeds, ...saved.tensors });
    return new Map(this.params.map((n) => [n, out[`grad.${n}`]!.data as Float32Array | Float64Array]));
  }

  async release(): Promise<void> {
    await this.forwardRunner.release();
    await this.backwardRunner.release();
  }
}
