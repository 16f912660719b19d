// settingModules / settingsPerModule (the copy stage): the agent also imitates oracle play on the named library
// modules at other knob settings, each seed without and with the hint, and the summary counts them. Off by default;
// a name that is no library module with an integer knob is refused, naming the field. Real sandbox, real training.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { OptionsError } from '../../runtime/options.js';
import { warmStart } from '../../warmstart/index.js';

const tiny = {
  model: { layers: 1, width: 32, heads: 2, kvHeads: 1, contextLength: 2560 }, steps: 2, batchTokens: 2560, lr: 1e-3, minLr: 1e-4, warmupSteps: 1,
  episodesPerEnv: 1, hintEnvEpisodes: 2, editsPerParent: 2, secondEdits: 0, documents: 'stand-in' as const, saveEvery: 0, minutes: 0, planBy: 'steps' as const,
};

t.test('other knob settings of the named modules become agent data', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warm-settings-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const on = await warmStart({ ...tiny, settingModules: ['door-code', 'ticket-close'], settingsPerModule: 4, settingEpisodes: 3, outDir: join(dir, 'on') }, (l) => lines.push(l));
  const s = on.settings!;
  t.same(s.modules, ['door-code', 'ticket-close'], 'the named modules');
  t.equal(s.settings, 8, '4 settings of each');
  t.equal(s.episodes.played, 8 * 3 * 2, '3 seeds × 2 arms per setting');
  t.ok(s.episodes.kept > 0 && s.episodes.kept + s.episodes.lost + s.episodes.mismatched === s.episodes.played, `kept ${s.episodes.kept}, lost ${s.episodes.lost}`);
  t.equal(s.episodes.mismatched, 0, 'the vm and the sandbox agree on every setting');
  t.match(lines.join('\n'), /oracle episodes kept on 8 other knob settings of door-code, ticket-close/);
  const off = await warmStart({ ...tiny, outDir: join(dir, 'off') }, () => {});
  t.equal(off.settings, null, 'off by default');
  const refused = async (o: Parameters<typeof warmStart>[0]): Promise<unknown> => warmStart(o, () => {}).then(() => null, (e: unknown) => e);
  const unknown = await refused({ ...tiny, settingModules: ['door-code', 'no-such-module'], settingsPerModule: 2, outDir: join(dir, 'bad') });
  t.ok(unknown instanceof OptionsError, 'an unknown module is an OptionsError');
  t.match((unknown as Error).message, /options\.settingModules\[1\].*no-such-module/s, 'naming the field and the name');
  const none = await refused({ ...tiny, settingsPerModule: 2, outDir: join(dir, 'none') });
  t.ok(none instanceof OptionsError && /options\.settingModules/.test(none.message), 'settings without modules are refused');
});
