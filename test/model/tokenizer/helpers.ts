// Shared fixtures for tokenizer tests: a seeded PRNG and a small training text.
export { mulberry32 } from '../../helpers/random.js';

export const SAMPLE_DOCS = [
  'export const spec = { name: "sum-to-target", maxTurns: 8 };\nexport default class Env {\n  reset(seed) {\n    return { observation: "Target 23. Total 0." };\n  }\n}\n',
  'The designer writes an environment; the agent plays it. The evaluator scores the regret of the designer.\n',
  'step(action) {\n    const n = Number(action);\n    this.total += n;\n    return { observation: `Total ${this.total}.`, reward: 0, terminated: false };\n  }\n',
  'Héllo wörld — ünïcödé text, 日本語のテキスト, emoji 🙂🚀 and a tab\there.\n',
];

/** The error fn throws, or undefined when it returns. */
export function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

export async function caughtAsync(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return undefined;
}
