// A tiny parameter table, weights with awkward bit patterns, and an optimizer state, for checkpoint tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdamW, type AdamWState } from '../../../model/optimizer.js';
import { mulberry32 } from '../tokenizer/helpers.js';

export const SHAPES = new Map<string, readonly number[]>([
  ['tok_embeddings.weight', [8, 4]],
  ['layers.0.attention.wq.weight', [4, 4]],
  ['layers.0.attention_norm.weight', [4]],
  ['norm.weight', [4]],
]);

export function makeParams(seed = 1): Map<string, Float32Array> {
  const rnd = mulberry32(seed);
  const params = new Map([...SHAPES].map(([n, s]) => [n, Float32Array.from({ length: s.reduce((a, b) => a * b, 1) }, () => rnd() * 2 - 1)]));
  // Values a lossy path would change: -0, a subnormal, the largest float, the most negative one (NaN and infinities are refused: weights must be finite).
  const bits = new Uint32Array(params.get('tok_embeddings.weight')!.buffer);
  bits.set([0x80000000, 0x00000001, 0x7f7fffff, 0xff7fffff], 0);
  return params;
}

export function makeOptimizerState(params: Map<string, Float32Array>): AdamWState {
  const opt = new AdamW({ schedule: { peakLr: 0.01, warmupSteps: 0, decaySteps: 10, minLr: 0.001 } });
  const copy = new Map([...params].map(([n, p]) => [n, p.map((x) => (Number.isFinite(x) ? x : 0))]));
  for (let s = 0; s < 2; s++) opt.update(copy, new Map([...copy].map(([n, p]) => [n, p.map((x, i) => Math.sin(x + i + s) * 0.01)])));
  return opt.exportState();
}

export async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'spade-ckpt-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export const bytesOf = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
