// `spade report` writes one HTML file that needs nothing else: on a finished real run (figures, curves, where the
// CPU seconds went, the environment gallery with code, episodes from the run's stored streams) and on an
// experiment's results.json (the arms' table, the learning curves with their bands). Each file parses in a real
// browser with no script error, draws its charts, and references and requests no remote asset.
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { repoPath } from '../../runtime/paths.js';
import { browser, page } from '../helpers/browser.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const run = promisify(execFile);
const spade = (args: string[]) => run(process.execPath, [repoPath('runtime/spade.js'), ...args], { cwd: repoPath() });
/** The committed results of a real (reduced) experiment: a smoke experiment takes minutes to run. */
const EXPERIMENT = repoPath('docs', 'experiments', '2026-12-02-reduced');

/** Attributes and CSS that would load something: none may point anywhere but inside the file. */
function externalRefs(html: string): string[] {
  const refs = [...html.matchAll(/\b(?:src|href|srcset|action|poster)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!);
  const css = [...html.matchAll(/url\(\s*["']?([^"')]+)/gi)].map((m) => m[1]!);
  const imports = [...html.matchAll(/@import\s+["']?([^"';\s]+)/gi)].map((m) => m[1]!);
  return [...refs, ...css, ...imports].filter((u) => !/^(data:|#)/.test(u));
}

t.test('spade report writes one self-contained HTML file of a run and of an experiment', { timeout: 200_000 }, async (t) => {
  const dir = tempDir(t, 'spade-report-');
  const runDir = join(dir, 'run');
  const host = spawnHost(t, ['--run-dir', runDir, '--iterations', '3', ...setArgs(['loop.ablations.fixedEnvs=true', 'host.profileEveryMs=500', ...TINY_RUN])], { SPADE_NATS_URL: '' });
  t.equal((await host.exited).code, 0, 'a short real run finishes');
  const accepted = readFileSync(join(runDir, 'envs', 'accepted.jsonl'), 'utf8').trim().split('\n').length;

  const said = await spade(['report', runDir]);
  t.match(said.stdout, /report: .*report\.html \(run, \d+ KiB, self-contained\)/, 'it says where the run report went');
  const out = join(dir, 'experiment.html');
  await spade(['report', EXPERIMENT, '--out', out]);

  const b = await browser(t);
  for (const [name, file] of [['run', join(runDir, 'report.html')], ['experiment', out]] as const) {
    const html = readFileSync(file, 'utf8');
    t.same(externalRefs(html), [], `${name}: the file references no other file or remote asset`);
    t.match(html, /<script id="spade-data" type="application\/json">/, `${name}: its data is inline`);
    const p = await page(b);
    await p.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const charts = Number(await p.evaluate(`[...document.querySelectorAll('[data-metric^="curve-"]')].filter((e) => e.querySelector('canvas') && Number(e.getAttribute('data-points')) > 0).length`));
    t.ok(charts >= 2, `${name}: the page parses and draws its charts (${charts} with data)`);
    t.same(p.errors, [], `${name}: no script error`);
    if (name === 'run') {
      t.equal(Number(await p.evaluate(`document.querySelector('[data-metric="env-table"]').getAttribute('data-rows')`)), accepted, 'run: every accepted environment is in the gallery');
      t.equal(await p.evaluate(`document.querySelector('[data-metric="accepted"]').textContent`), String(accepted), 'run: the accepted figure is the run\'s');
      const profile = String(await p.evaluate(`document.querySelector('[data-metric="profile-table"]').textContent`));
      t.match(profile, /decode[\d.]+[\d.]+%/, 'run: where the CPU seconds went, with the agent\'s decode steps');
      t.match(profile, /sandbox[\d.]+[\d.]+%/, 'run: and the sandbox\'s steps');
      t.match(profile, /all \(1 host\)/, 'run: summed over the run\'s one host');
      await p.click('tr[data-env]');
      await p.waitForSelector('[data-metric="env-code"]');
      t.match(await p.evaluate(`document.querySelector('[data-metric="env-code"]').textContent`), /export default class/, 'run: an environment\'s code opens from the file');
      await p.click('tr[data-traj]');
      await p.waitForSelector('table[data-metric="trajectory"]');
      t.ok(Number(await p.evaluate(`document.querySelector('[data-metric="trajectory"]').getAttribute('data-turns')`)) >= 1, 'run: an episode, read from the run\'s stored streams, renders from the file');
    } else {
      const results = JSON.parse(readFileSync(join(EXPERIMENT, 'results.json'), 'utf8')) as { arms: Record<string, unknown> };
      t.equal(Number(await p.evaluate(`document.querySelectorAll('[data-metric="arm-table"] tr[data-arm]').length`)), Object.keys(results.arms).length, 'experiment: one table row per arm');
      t.ok(Number(await p.evaluate(`document.querySelectorAll('[data-metric="curve-heldout"] canvas').length`)) > 0, 'experiment: the learning curves with their bands are drawn');
    }
    t.same(p.remote, [], `${name}: the browser requested nothing remote`);
  }
});
