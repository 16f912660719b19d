// Bad input to `spade report` and `spade dashboard` ends in a typed error that names what is wrong and where: a
// directory that is neither a run nor an experiment, a results.json that is not an experiment's, a metrics line that
// is not JSON, a port that is not one, both --run-dir and --nats.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dashboardCommand, isDashboardArgsError, isReportInputError, reportCommand } from '../../dashboard/index.js';
import { isUsageError } from '../../runtime/errors.js';
import { tempDir } from '../helpers/nats.js';

t.test('report and dashboard refuse bad input, naming it', async (t) => {
  const dir = tempDir(t, 'spade-report-bad-');
  const refuses = async (p: Promise<unknown>, check: (e: unknown) => boolean, what: string) => {
    const err = await p.then(() => null, (e: unknown) => e);
    t.ok(err !== null && check(err), `${what}: ${(err as Error | null)?.message ?? 'no error'}`);
  };
  await refuses(reportCommand([join(dir, 'nope')]), (e: unknown) => isReportInputError(e) && /nope does not exist/.test((e as Error).message), 'a missing directory');
  await refuses(reportCommand([dir]), (e: unknown) => isReportInputError(e) && /neither an experiment directory \(results\.json\) nor a run directory \(metrics\.jsonl\)/.test((e as Error).message), 'an empty directory');

  const exp = join(dir, 'exp');
  mkdirSync(exp);
  writeFileSync(join(exp, 'results.json'), '{"arms": {}}');
  await refuses(reportCommand([exp]), (e: unknown) => isReportInputError(e) && (e as { path: string }).path.endsWith('results.json') && /no "heldout" object/.test((e as Error).message), 'a results.json that is not an experiment\'s names the missing field');

  const run = join(dir, 'run');
  mkdirSync(join(run, 'envs'), { recursive: true });
  writeFileSync(join(run, 'metrics.jsonl'), '{"event":"tick"}\n{not json\n');
  await refuses(reportCommand([run]), (e: unknown) => isReportInputError(e) && /metrics\.jsonl line 2 is not JSON/.test((e as Error).message), 'a broken metrics line names the file and line');

  await refuses(dashboardCommand(['--port', 'eighty']), (e: unknown) => isDashboardArgsError(e) && (e as { field: string }).field === '--port' && /--port must be an integer from 0 to 65535/.test((e as Error).message), 'a port that is not a number');
  await refuses(dashboardCommand(['--port', '70000']), (e: unknown) => isDashboardArgsError(e) && (e as { field: string }).field === '--port', 'a port out of range');
  await refuses(dashboardCommand(['--run-dir', dir, '--nats', 'nats://127.0.0.1:1']), (e: unknown) => isUsageError(e) && /--run-dir or --nats, not both/.test((e as Error).message), 'both sources');
  await refuses(dashboardCommand(['--run-dir', join(dir, 'missing')]), (e: unknown) => isDashboardArgsError(e) && /--run-dir must be an existing run directory/.test((e as Error).message), 'a missing run directory');
  await refuses(reportCommand([]), (e: unknown) => isUsageError(e), 'no directory is a usage error');
});
