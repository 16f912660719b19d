// `spade dashboard` on a real running run, in a real browser: the page's figures change as the run advances without
// a reload, an environment's code and lineage open, one of its episodes renders turn by turn, nothing is fetched from
// outside the dashboard, and a screenshot of the page is not blank.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import { browser, page, screenshotColours } from '../helpers/browser.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';
import { setArgs, TINY_RUN } from '../helpers/tiny-run.js';

const SET = setArgs(['loop.ablations.fixedEnvs=true', ...TINY_RUN, 'run.maxStaleness=1']);
const figure = (name: string) => `document.querySelector('[data-metric="${name}"]')`;

t.test('the dashboard follows a live run in a browser', { timeout: 240_000 }, async (t) => {
  const runDir = join(tempDir(t, 'spade-dash-'), 'run');
  // Many more iterations than the test needs: it is stopped at teardown, and must still be running while the page looks.
  const host = spawnHost(t, ['--run-dir', runDir, '--iterations', '400', ...SET], { SPADE_NATS_URL: '' });
  await host.waitFor(/running roles/, 120_000);
  t.ok(existsSync(join(runDir, 'nats.url')), 'the run wrote its embedded server URL');

  const dash = spawn(process.execPath, [repoPath('runtime/spade.js'), 'dashboard', '--run-dir', runDir, '--port', '0'], { cwd: repoPath(), stdio: ['ignore', 'pipe', 'pipe'] });
  const dashExit = new Promise<number | null>((r) => dash.once('exit', (code) => r(code)));
  t.teardown(() => (dash.exitCode === null ? (dash.kill('SIGTERM'), dashExit) : undefined));
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from spade dashboard: ${said}`)), 60_000);
    const on = (b: Buffer) => {
      said += b.toString();
      const m = /dashboard: (http:\/\/\S+)/.exec(said);
      if (m) (clearTimeout(timer), resolve(m[1]!));
    };
    dash.stdout!.on('data', on);
    dash.stderr!.on('data', on);
    void dashExit.then((c) => reject(new Error(`spade dashboard exited ${c}: ${said}`)));
  });
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'it prints the URL it serves, on the loopback address');

  const b = await browser(t);
  const p = await page(b);
  await p.goto(url, { waitUntil: 'load' });
  await p.waitForFunction(`/^\\d+$/.test(${figure('iteration')}.textContent)`, { timeout: 30_000 });
  const first = Number(await p.evaluate(`${figure('iteration')}.textContent`));
  const firstPoints = Number(await p.evaluate(`${figure('curve-returns')}.getAttribute('data-points') || 0`));
  // Live: the same page, not reloaded, shows the run further on.
  await p.waitForFunction(`Number(${figure('iteration')}.textContent) >= ${first + 2}`, { timeout: 90_000 });
  await p.waitForFunction(`Number(${figure('curve-returns')}.getAttribute('data-points') || 0) > ${firstPoints}`, { timeout: 30_000 });
  const later = Number(await p.evaluate(`${figure('iteration')}.textContent`));
  t.ok(later >= first + 2, `the iteration figure advanced without a reload (${first} → ${later})`);
  t.ok(Number(await p.evaluate(`${figure('accepted')}.textContent`)) > 0, 'accepted environments are counted');
  t.ok(Number(await p.evaluate(`${figure('members')}.textContent`)) >= 1, 'the run host is listed as a member');
  t.ok(Number(await p.evaluate(`document.querySelectorAll('[data-metric="curve-returns"] canvas').length`)) > 0, 'the returns curve is drawn');

  // An environment: its code, its lineage, then one of its episodes turn by turn.
  await p.waitForFunction(`[...document.querySelectorAll('tr[data-env]')].some((r) => Number(r.lastElementChild.textContent) > 0)`, { timeout: 30_000 });
  await p.evaluate(`[...document.querySelectorAll('tr[data-env]')].find((r) => Number(r.lastElementChild.textContent) > 0).click()`);
  await p.waitForSelector('[data-metric="env-code"]', { timeout: 10_000 });
  t.match(await p.evaluate(`${figure('env-code')}.textContent`), /export default class/, 'the environment\'s code opens');
  t.ok(await p.evaluate(`!!${figure('env-lineage')}.querySelector('.node.self')`), 'its lineage shows it among its parents and children');
  await p.waitForSelector('tr[data-traj]', { timeout: 10_000 });
  await p.click('tr[data-traj]');
  await p.waitForSelector('table[data-metric="trajectory"]', { timeout: 10_000 });
  const turns = Number(await p.evaluate(`${figure('trajectory')}.getAttribute('data-turns')`));
  t.ok(turns >= 1, `the episode renders turn by turn (${turns} turns)`);
  t.ok(String(await p.evaluate(`document.querySelector('table[data-metric="trajectory"] .turn-obs').textContent`)).length > 0, 'each turn shows the observation the agent answered');
  t.match(String(await p.evaluate(`${figure('trajectory')}.textContent`)), /v\d+/, 'each turn names the policy version that sampled it');

  const png = await p.screenshot({ fullPage: true });
  const colours = await screenshotColours(p, png);
  t.ok(colours > 20, `the screenshot is not blank (${colours} distinct colours in a sample)`);
  t.same(p.remote, [], 'the page fetched nothing from outside the dashboard');
  t.same(p.errors, [], 'no script error on the page');

  dash.kill('SIGTERM');
  t.equal(await dashExit, 0, 'the dashboard stops cleanly on SIGTERM');
  host.child.kill('SIGTERM');
  t.equal((await host.exited).code, 0, 'the run drains and stops');
});
