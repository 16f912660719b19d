// The evaluation report: the JSON object `spade eval --json` prints (one line) and the tables it prints otherwise.
// Means weigh every valid environment equally; intervals come from bootstrap.ts (two-level: environments, then
// seeds); `paired` is a − b on the no-hint returns, every pair of checkpoints, cell by cell on the same seeds.
import { DEFAULT_BOOTSTRAP_OPTIONS, estimate, pairedDifference, type BootstrapOptions, type Estimate, type ReturnTable } from './bootstrap.js';
import type { EnvReturns, PlayableEnv } from './play.js';

type Ci = [number, number] | null;

export interface FamilyResult {
  /** Valid environments averaged. */
  environments: number;
  meanReturnNoHint: number | null;
  ci95NoHint: Ci;
  meanReturnHint: number | null;
  ci95Hint: Ci;
}

export interface EnvResult {
  family: string;
  returnNoHint: number;
  returnHint: number | null;
  episodes: number;
  faults: number;
}

export interface CheckpointResult extends FamilyResult {
  checkpoint: string;
  families: Record<string, FamilyResult>;
  envs: Record<string, EnvResult>;
  invalid: Record<string, string>;
}

export interface PairedResult {
  a: string;
  b: string;
  meanDiff: number | null;
  ci95: Ci;
}

export interface EvalReport {
  suite: string;
  seeds: number;
  firstSeed: number;
  temperature: number;
  bootstrap: string;
  results: CheckpointResult[];
  paired: PairedResult[];
}

export interface ReportInput {
  suite: string;
  seeds: number[];
  temperature: number;
  hint: boolean;
  envs: readonly PlayableEnv[];
  invalid: Record<string, string>;
  checkpoints: { checkpoint: string; played: Map<string, EnvReturns> }[];
  bootstrap?: BootstrapOptions;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function summary(noHint: ReturnTable, hint: ReturnTable | null, b: BootstrapOptions): FamilyResult {
  const n: Estimate | null = estimate(noHint, b);
  const h: Estimate | null = hint ? estimate(hint, b) : null;
  return { environments: noHint.length, meanReturnNoHint: n?.mean ?? null, ci95NoHint: n?.ci95 ?? null, meanReturnHint: h?.mean ?? null, ci95Hint: h?.ci95 ?? null };
}

export function buildReport(input: ReportInput): EvalReport {
  const b = { ...DEFAULT_BOOTSTRAP_OPTIONS, ...input.bootstrap };
  const families = [...new Set(input.envs.map((e) => e.family))].sort();
  const results = input.checkpoints.map(({ checkpoint, played }): CheckpointResult => {
    const rows = input.envs.map((e) => ({ e, r: played.get(e.key)! }));
    const tables = (sel: typeof rows) => ({ n: sel.map((x) => x.r.noHint), h: input.hint ? sel.map((x) => x.r.hint!) : null });
    const all = tables(rows);
    return {
      checkpoint, ...summary(all.n, all.h, b),
      families: Object.fromEntries(families.map((f) => {
        const t = tables(rows.filter((x) => x.e.family === f));
        return [f, summary(t.n, t.h, b)];
      })),
      envs: Object.fromEntries(rows.map(({ e, r }) => [e.key, {
        family: e.family, returnNoHint: mean(r.noHint), returnHint: r.hint ? mean(r.hint) : null, episodes: r.episodes, faults: r.faults,
      }])),
      invalid: { ...input.invalid },
    };
  });
  const paired: PairedResult[] = [];
  for (let i = 0; i < input.checkpoints.length; i++)
    for (let j = i + 1; j < input.checkpoints.length; j++) {
      const t = (k: number) => input.envs.map((e) => input.checkpoints[k]!.played.get(e.key)!.noHint);
      const d = pairedDifference(t(i), t(j), b);
      paired.push({ a: input.checkpoints[i]!.checkpoint, b: input.checkpoints[j]!.checkpoint, meanDiff: d?.mean ?? null, ci95: d?.ci95 ?? null });
    }
  return {
    suite: input.suite, seeds: input.seeds.length, firstSeed: input.seeds[0] ?? 0, temperature: input.temperature,
    bootstrap: `two-level (environments, then seeds within each), B=${b.resamples}, seed ${b.seed}, percentile ${b.level * 100}%`,
    results, paired,
  };
}

const f3 = (x: number | null): string => (x === null ? '  -  ' : x.toFixed(3));
const ci = (c: Ci): string => (c === null ? '' : `[${f3(c[0])}, ${f3(c[1])}]`);
const cell = (m: number | null, c: Ci): string => `${f3(m)} ${ci(c)}`.padEnd(22);

/** Human-readable tables: per checkpoint, its families and overall, then its environments; then the pairs. */
export function formatReport(r: EvalReport): string {
  const lines: string[] = [`suite ${r.suite}: ${r.seeds} seeds from ${r.firstSeed}, temperature ${r.temperature}; 95% CI by ${r.bootstrap}`];
  for (const c of r.results) {
    lines.push('', `checkpoint ${c.checkpoint}`, `  ${'family'.padEnd(14)}${'envs'.padStart(5)}  ${'no hint'.padEnd(22)}hint`);
    for (const [f, s] of [...Object.entries(c.families), ['all', c] as const])
      lines.push(`  ${String(f).padEnd(14)}${String(s.environments).padStart(5)}  ${cell(s.meanReturnNoHint, s.ci95NoHint)}${cell(s.meanReturnHint, s.ci95Hint)}`);
    lines.push(`  ${'environment'.padEnd(28)}${'family'.padEnd(12)}${'no hint'.padStart(8)}${'hint'.padStart(8)}${'episodes'.padStart(10)}${'faults'.padStart(8)}`);
    for (const [name, e] of Object.entries(c.envs))
      lines.push(`  ${name.padEnd(28)}${e.family.padEnd(12)}${f3(e.returnNoHint).padStart(8)}${f3(e.returnHint).padStart(8)}${String(e.episodes).padStart(10)}${String(e.faults).padStart(8)}${e.faults ? '  FAULTS' : ''}`);
    for (const [file, why] of Object.entries(c.invalid)) lines.push(`  invalid ${file}: ${why}`);
  }
  if (r.paired.length) lines.push('', 'paired (no hint, a − b, same environments and seeds)');
  for (const p of r.paired) lines.push(`  ${p.a} − ${p.b}: ${f3(p.meanDiff)} ${ci(p.ci95)}`);
  return `${lines.join('\n')}\n`;
}
