// Shared helpers of the corpus tests: a fresh temporary folder per test and JSONL writers (plain and gzip).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'spade-corpus-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes lines (objects are JSON-encoded, strings written as they are) to `file`, gzipped when it ends in .gz. */
export function writeJsonl(file: string, lines: (object | string)[]): string {
  mkdirSync(dirname(file), { recursive: true });
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  writeFileSync(file, file.endsWith('.gz') ? gzipSync(body) : body);
  return file;
}

/** A text of about `n` characters made of distinct numbered sentences. */
export function prose(tag: string, n: number): string {
  const out: string[] = [];
  for (let i = 0, len = 0; len < n; i++) {
    const s = `Sentence ${i} of ${tag} says something plain.`;
    out.push(s);
    len += s.length + 1;
  }
  return out.join(' ');
}

/** Pearson chi-square statistic of observed counts against expected probabilities. */
export function chiSquare(observed: number[], probs: number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  return observed.reduce((acc, o, i) => acc + (o - n * probs[i]!) ** 2 / (n * probs[i]!), 0);
}

/** Chi-square critical values at p = 0.001 by degrees of freedom. */
export const CHI2_999: Record<number, number> = { 1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 9: 27.88, 11: 31.26 };
