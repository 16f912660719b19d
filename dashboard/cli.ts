// `spade dashboard` and `spade report`: argument parsing, and the dashboard's life from open to Ctrl-C.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../runtime/errors.js';
import { BusSource, runLoopOptions, runPromptFormat } from './bus-source.js';
import { DashboardArgsError, ReportInputError } from './errors.js';
import { openRun } from './open-run.js';
import { readJsonl, readRunDir } from './run-dir.js';
import { serveDashboard, type DashboardData } from './server.js';
import { writeReport } from './report.js';

export const DASHBOARD_USAGE = `Usage: spade dashboard [--run-dir DIR | --nats URL] [--port 8080] [--host 127.0.0.1]

Serves a live page of a run (figures, curves, environments with code and lineage, episodes turn by turn) and prints
its URL. It is a read-only client of the bus: the run's own embedded server (DIR/nats.url), another cluster (--nats),
or, for a finished embedded run, the run's stored streams. Every asset is served by the command itself.

Options:
  --run-dir DIR   the run (default: runs/latest)
  --nats URL      a cluster's NATS server instead of a run directory
  --port N        port to listen on (default 8080; 0 = any free port)
  --host HOST     address to listen on (default 127.0.0.1)
  -h, --help      show this help
`;

export const REPORT_USAGE = `Usage: spade report DIR [--out FILE]

Writes one self-contained HTML file (inline scripts, styles and data; nothing fetched from a network).
  DIR a run directory (metrics.jsonl): figures, curves, the environment gallery with code and lineage, and episodes
      when the run's stored streams can be read;
  DIR an experiment directory (results.json): the arms' table and learning curves with 95% bands.

Options:
  --out FILE   where to write (default DIR/report.html)
  -h, --help   show this help
`;

function parse<T extends Parameters<typeof parseArgs>[0]>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${usage}`);
  }
}

export async function reportCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const p = parse({ args: argv, options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true }, REPORT_USAGE);
  if (p.values.help) return void out.write(REPORT_USAGE), 0;
  if (p.positionals.length !== 1) throw new UsageError(`spade report takes one run or experiment directory\n\n${REPORT_USAGE}`);
  const r = await writeReport(p.positionals[0]!, p.values.out as string | undefined);
  out.write(`report: ${r.file} (${r.kind}, ${(r.bytes / 1024).toFixed(0)} KiB, self-contained)\n`);
  return 0;
}

export function dashboardPort(text: string | undefined): number {
  if (text === undefined) return 8080;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new DashboardArgsError('--port', 'an integer from 0 to 65535', text);
  return n;
}

/** Opens the run's data: its bus when reachable, else its directory's files (no episodes). */
export async function openDashboardData(opts: { runDir?: string; nats?: string }): Promise<{ data: DashboardData; close(): Promise<void> }> {
  const opened = await openRun(opts);
  if (opened) {
    const { loop, designsPerIteration } = runLoopOptions(opts.runDir);
    const bus = new BusSource(opened.conn, await runPromptFormat(loop), opened.source, designsPerIteration, loop.library);
    await bus.start(2000, opened.live);
    if (!opened.live && opts.runDir) {
      await bus.caughtUp();
      for (const l of readJsonl(join(opts.runDir, 'metrics.jsonl'))) bus.model.metricsLine(l);
    }
    return {
      data: { model: bus.model, live: () => opened.live, episode: (id) => bus.episode(id), onChange: (f) => bus.onChange(f) },
      close: async () => (await bus.close(), await opened.close()),
    };
  }
  if (opts.runDir && existsSync(join(opts.runDir, 'metrics.jsonl'))) {
    const model = readRunDir(opts.runDir);
    return { data: { model, live: () => false, episode: async () => null, onChange: () => () => undefined }, close: async () => undefined };
  }
  throw new ReportInputError(`${opts.runDir}: no bus to reach (no live nats.url, no stored streams) and no metrics.jsonl`, opts.runDir ?? '');
}

export async function dashboardCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const p = parse({
    args: argv,
    options: { 'run-dir': { type: 'string' }, nats: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }, DASHBOARD_USAGE);
  const v = p.values as { 'run-dir'?: string; nats?: string; port?: string; host?: string; help?: boolean };
  if (v.help) return void out.write(DASHBOARD_USAGE), 0;
  if (v['run-dir'] && v.nats) throw new UsageError(`give --run-dir or --nats, not both\n\n${DASHBOARD_USAGE}`);
  const port = dashboardPort(v.port);
  const runDir = v.nats ? undefined : resolve(v['run-dir'] ?? 'runs/latest');
  if (runDir && !existsSync(runDir)) throw new DashboardArgsError('--run-dir', 'an existing run directory', runDir);
  const { data, close } = await openDashboardData({ ...(runDir ? { runDir } : {}), ...(v.nats ? { nats: v.nats } : {}) });
  const srv = await serveDashboard(data, { host: v.host ?? '127.0.0.1', port });
  out.write(`dashboard: ${srv.url} (${data.model.source}${data.live() ? ', live' : ''}); Ctrl-C to stop\n`);
  await new Promise<void>((r) => {
    process.once('SIGINT', r);
    process.once('SIGTERM', r);
  });
  await srv.close();
  await close();
  return 0;
}
