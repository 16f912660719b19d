// options.drills: each named drill module is played by its oracle on seeds 1..drillEpisodes, without and with the
// hint, and its episodes join the agent data; the summary counts them. Off by default. A drill file that cannot be
// read, or has no spec name, fails with WarmStartDataError naming the path; one named like a library module or
// another drill, with OptionsError naming the field. Real sandbox, real training, the shipped
// look-up drill.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { OptionsError } from '../../runtime/options.js';
import { repoPath } from '../../runtime/paths.js';
import { WarmStartDataError, warmStart } from '../../warmstart/index.js';

const tiny = {
  model: { layers: 1, width: 32, heads: 2, kvHeads: 1, contextLength: 2560 }, steps: 2, batchTokens: 2560, lr: 1e-3, minLr: 1e-4, warmupSteps: 1,
  episodesPerEnv: 1, hintEnvEpisodes: 2, editsPerParent: 2, secondEdits: 0, documents: 'stand-in' as const, saveEvery: 0, minutes: 0, planBy: 'steps' as const,
};
const lookUp = repoPath('envs', 'drills', 'look-up.js');

t.test('drill episodes become agent data', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warm-drills-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const on = await warmStart({ ...tiny, drills: [lookUp], drillEpisodes: 5, outDir: join(dir, 'on') }, (l) => lines.push(l));
  const d = on.drills!;
  t.same(d.modules, ['look-up'], 'named by the module\'s spec');
  t.equal(d.episodes.played, 5 * 2, '5 seeds × 2 arms');
  t.equal(d.episodes.kept, 10, 'the oracle wins every look-up episode');
  t.equal(d.episodes.mismatched, 0, 'the vm and the sandbox agree');
  t.match(lines.join('\n'), /10\/10 oracle episodes kept on the drills look-up/);
  const off = await warmStart({ ...tiny, outDir: join(dir, 'off') }, () => {});
  t.equal(off.drills, null, 'off by default');

  const refused = async (o: Parameters<typeof warmStart>[0]): Promise<unknown> => warmStart(o, () => {}).then(() => null, (e: unknown) => e);
  const missing = join(dir, 'no-such-drill.js');
  const unread = await refused({ ...tiny, drills: [missing], outDir: join(dir, 'bad') });
  t.ok(unread instanceof WarmStartDataError, 'an unreadable drill is a WarmStartDataError');
  t.match((unread as Error).message, missing, 'naming the path');
  const nameless = join(dir, 'nameless.js');
  writeFileSync(nameless, 'export const spec = { description: "x", hint: "y", maxTurns: 1 };\nexport default class Env { reset() { return { observation: "o" }; } step() { return { observation: "o", reward: 0, terminated: true }; } }\nexport function oracle() { return "a"; }\n');
  const noName = await refused({ ...tiny, drills: [nameless], outDir: join(dir, 'bad2') });
  t.ok(noName instanceof WarmStartDataError && noName.message.includes(nameless) && /spec\.name/.test(noName.message), 'a drill without spec.name is refused, naming the path');
  const twice = await refused({ ...tiny, drills: [lookUp, lookUp], outDir: join(dir, 'bad3') });
  t.ok(twice instanceof OptionsError && /options\.drills\[1\].*look-up/s.test(twice.message), 'a drill named like another is refused, naming the field');
  const shadow = await refused({ ...tiny, drills: [repoPath('envs', 'library', 'reasoning', 'door-code.js')], outDir: join(dir, 'bad4') });
  t.ok(shadow instanceof OptionsError && /options\.drills\[0\].*door-code/s.test(shadow.message), 'a drill named like a library module is refused');
});
