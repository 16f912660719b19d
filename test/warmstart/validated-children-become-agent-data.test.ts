// childEpisodes: the agent also imitates oracle play on the designer's validated children of instance-hint parents
// (other names, constants, word lists and wording than the library's), each seed without and with the hint; the
// stream then serves agent rows from them. Off (0) by default: no child episodes are played.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { warmStart } from '../../warmstart/index.js';

const tiny = {
  model: { layers: 1, width: 32, heads: 2, kvHeads: 1, contextLength: 2560 }, steps: 2, batchTokens: 2560, lr: 1e-3, minLr: 1e-4, warmupSteps: 1,
  episodesPerEnv: 1, hintEnvEpisodes: 2, editsPerParent: 2, secondEdits: 0, documents: 'stand-in' as const, saveEvery: 0, minutes: 0, planBy: 'steps' as const,
};

t.test('validated children of instance-hint parents become agent data', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warm-children-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const on = await warmStart({ ...tiny, childEpisodes: 3, outDir: join(dir, 'on') }, (l) => lines.push(l));
  const c = on.childEpisodes!;
  t.ok(c.played > 0 && c.played % 6 === 0, `3 seeds × 2 arms per child: ${c.played} played`);
  t.ok(c.kept >= c.played / 2, `most child episodes are won by the oracle and kept: ${c.kept}/${c.played}`);
  t.ok(c.hintChanged > 0, 'the hint changes the oracle on some children too');
  t.match(lines.join('\n'), /oracle episodes kept on \d+ children of instance-hint parents/);
  const off = await warmStart({ ...tiny, outDir: join(dir, 'off') }, () => {});
  t.equal(off.childEpisodes, null, 'off by default');
});
