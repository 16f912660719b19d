// The learning curve of one arm run: its snapshots at budget fractions 1/n .. (n−1)/n (actors/coordinator: `curve/`)
// and its final checkpoint at n/n, each with the policy tokens spent when it was taken.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunMetrics } from './accounting.js';

export interface CurveCheckpoint {
  fraction: number;
  tokens: number;
  checkpoint: string;
}

export function curveCheckpoints(runDir: string, metrics: RunMetrics, finalCheckpoint: string): CurveCheckpoint[] {
  const dir = join(runDir, 'curve');
  const points: CurveCheckpoint[] = [];
  if (existsSync(dir))
    for (const d of readdirSync(dir)) {
      const m = /^(\d+)of(\d+)$/.exec(d);
      if (!m) continue;
      const [point, of] = [Number(m[1]), Number(m[2])];
      const line = metrics.curve.find((c) => c.point === point && c.of === of);
      points.push({ fraction: point / of, tokens: line?.tokens ?? 0, checkpoint: join(dir, d) });
    }
  points.sort((a, b) => a.fraction - b.fraction);
  points.push({ fraction: 1, tokens: metrics.tokens.total, checkpoint: finalCheckpoint });
  return points;
}

export interface CurvePoint {
  fraction: number;
  tokens: number;
  meanReturnNoHint: number | null;
  ci95NoHint: [number, number] | null;
}
