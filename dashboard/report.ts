// `spade report`: one self-contained HTML file. An experiment directory (it holds results.json) becomes the arms'
// table and learning curves with their intervals; a run directory becomes the dashboard's page, frozen: figures,
// curves, every environment with its code and lineage, and — when the run's stored streams can be read — a few
// episodes per environment, turn by turn.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BusSource, runLoopOptions, runPromptFormat, type EpisodeView } from './bus-source.js';
import { ReportInputError } from './errors.js';
import { openRun } from './open-run.js';
import { inlinePage } from './page.js';
import { readJsonl, readRunDir } from './run-dir.js';
import type { RunModel } from './run-model.js';

/** Caps on what a run report inlines, so a long run's report stays a file a browser opens quickly. */
export const REPORT_LIMITS = { envs: 2000, episodesPerEnv: 4, episodes: 400 } as const;

export interface ReportData {
  kind: 'run' | 'experiment';
  source: string;
  [key: string]: unknown;
}

export function experimentReportData(dir: string): ReportData {
  const file = join(dir, 'results.json');
  let results: unknown;
  try {
    results = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ReportInputError(`${file} is not readable JSON: ${(err as Error).message}`, file, err);
  }
  const r = results as { arms?: unknown; heldout?: unknown; experiment?: unknown; base?: unknown; accounting?: unknown };
  for (const k of ['arms', 'heldout', 'experiment', 'base', 'accounting'] as const)
    if (!r || typeof r[k] !== 'object' || r[k] === null) throw new ReportInputError(`${file} has no "${k}" object: not a spade experiment's results.json`, file);
  return { kind: 'experiment', source: resolve(dir), results };
}

/** A run's page data from its model, with up to REPORT_LIMITS episodes read through `episode`. */
export async function runReportData(model: RunModel, episode: ((id: string) => Promise<EpisodeView | null>) | null): Promise<ReportData> {
  const ids = model.envIds().slice(-REPORT_LIMITS.envs);
  const envs: Record<string, unknown> = {};
  const episodes: Record<string, EpisodeView> = {};
  let kept = 0;
  for (const id of ids) {
    const d = model.env(id)!;
    // The first few of each arm (no hint, then hint), while the report's total allows.
    const pick = [...d.episodes.filter((e) => !e.hinted).slice(0, REPORT_LIMITS.episodesPerEnv / 2), ...d.episodes.filter((e) => e.hinted).slice(0, REPORT_LIMITS.episodesPerEnv / 2)];
    const inline = [];
    for (const e of pick) {
      if (!episode || kept >= REPORT_LIMITS.episodes) break;
      const v = await episode(e.trajId);
      if (v) (episodes[e.trajId] = v, inline.push(e), kept++);
    }
    envs[id] = { ...d, episodes: inline };
  }
  // The cluster's members and lag were the reading server's, not the run's: a report leaves them out.
  return { kind: 'run', source: model.source, overview: { ...model.overview(Date.now(), false), cluster: null }, envs, episodes };
}

/** Builds the report of `dir` and writes it to `out` (default `<dir>/report.html`); returns the file and its size. */
export async function writeReport(dir: string, out?: string): Promise<{ file: string; bytes: number; kind: ReportData['kind'] }> {
  if (!existsSync(dir)) throw new ReportInputError(`${dir} does not exist`, dir);
  let data: ReportData;
  if (existsSync(join(dir, 'results.json'))) data = experimentReportData(dir);
  else {
    if (!existsSync(join(dir, 'metrics.jsonl'))) throw new ReportInputError(`${dir} is neither an experiment directory (results.json) nor a run directory (metrics.jsonl)`, dir);
    const opened = await openRun({ runDir: dir });
    if (opened === null) data = await runReportData(readRunDir(dir), null);
    else {
      try {
        const { loop, designsPerIteration } = runLoopOptions(dir);
        const bus = new BusSource(opened.conn, await runPromptFormat(loop), resolve(dir), designsPerIteration, loop.library);
        await bus.start(60_000, false); // a report leaves the cluster's members and lag out
        await bus.caughtUp();
        for (const l of readJsonl(join(dir, 'metrics.jsonl'))) bus.model.metricsLine(l);
        data = await runReportData(bus.model, (id) => bus.episode(id));
        await bus.close();
      } finally {
        await opened.close();
      }
    }
  }
  const file = out ?? join(dir, 'report.html');
  const html = inlinePage(`SPADE report — ${basename(resolve(dir))}`, data);
  writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html), kind: data.kind };
}
