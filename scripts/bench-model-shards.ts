// bench:model's batch-32 sampling on sampler shards (model/sampler/shards.ts): the same requests on one session (the
// engine's in-process Sampler, as the section before it times) and on `shards` sampler threads of one intra-op thread
// each, in alternating rounds, so that each round's ratio compares runs that saw about the same load.
import type { ResolvedDecoderConfig } from '../model/index.js';
import { ShardedSampler } from '../model/sampler/index.js';

export interface ShardFigures {
  shards: number;
  tokensPerSec: number;
  oneSessionTokensPerSec: number;
  /** Median of the per-round ratios (one session's time / the shards'). */
  vsOneSession: number;
  rounds: { shardsMs: number[]; oneSessionMs: number[] };
}

const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
const collect = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

export async function benchShards(
  o: { config: ResolvedDecoderConfig; weights: Map<string, Float32Array>; prompts: number[][]; newTokens: number; rounds: number; shards: number; oneSession: () => Promise<unknown> },
  log: (line: string) => void,
): Promise<ShardFigures> {
  const sharded = await ShardedSampler.startThreads(o.shards, { config: o.config, weights: o.weights, version: 1, sampler: { maxBatch: o.prompts.length, seed: 1 }, threads: 1 });
  try {
    const run = (): Promise<unknown> => Promise.all(o.prompts.map((prompt) => sharded.generate({ prompt, maxTokens: o.newTokens, temperature: 1 })));
    await run(); // warm-up: the threads bake their weights on their first decode step
    const shardsMs: number[] = [], oneSessionMs: number[] = [];
    const time = async (fn: () => Promise<unknown>): Promise<number> => {
      collect();
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    for (let i = 0; i < o.rounds; i++) {
      oneSessionMs.push(await time(o.oneSession));
      shardsMs.push(await time(run));
    }
    const tokens = o.prompts.length * o.newTokens;
    const f: ShardFigures = {
      shards: o.shards, tokensPerSec: +(tokens / (median(shardsMs) / 1000)).toFixed(1), oneSessionTokensPerSec: +(tokens / (median(oneSessionMs) / 1000)).toFixed(1),
      vsOneSession: +median(shardsMs.map((ms, i) => oneSessionMs[i]! / ms)).toFixed(2),
      rounds: { shardsMs: shardsMs.map((x) => +x.toFixed(1)), oneSessionMs: oneSessionMs.map((x) => +x.toFixed(1)) },
    };
    log(`sampling batch ${o.prompts.length} on ${o.shards} sampler shards (one intra-op thread each): ${f.tokensPerSec.toFixed(0)} tokens/s; one session in the same rounds `
      + `${f.oneSessionTokensPerSec.toFixed(0)} tokens/s; shards ${f.vsOneSession.toFixed(2)}x (median of ${o.rounds} per-round ratios; rounds shards/one ms: `
      + `${shardsMs.map((x, i) => `${x.toFixed(0)}/${oneSessionMs[i]!.toFixed(0)}`).join(' ')})`);
    return f;
  } finally {
    await sharded.close();
  }
}
