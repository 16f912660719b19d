// The committed Hugging Face fixtures (test/fixtures/hf-models, written by make_hf_fixtures.py) and their
// expected values: per-token log-probs and gradients from an independent float64 PyTorch forward pass.
import { readFileSync } from 'node:fs';
import { repoPath } from '../../../runtime/paths.js';

export interface ExpectedModel {
  dtype: 'F32' | 'BF16';
  sharded: boolean;
  /** logprobs[i] = log p(tokens[i+1] | tokens[0..i]). */
  logprobs: number[];
  /** d sum(logprobs) / d tensor, by Hugging Face name and layout. */
  grads: Record<string, number[]>;
}

export interface Expected {
  tokens: number[];
  models: Record<string, ExpectedModel>;
  text: { model: string; text: string; ids: number[]; logprobs: number[] };
}

export const HF_FIXTURES = repoPath('test/fixtures/hf-models');
export const fixtureDir = (name: string): string => `${HF_FIXTURES}/${name}`;
export const EXPECTED = JSON.parse(readFileSync(`${HF_FIXTURES}/expected.json`, 'utf8')) as Expected;
export const FIXTURE_NAMES = Object.keys(EXPECTED.models);

export const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};
