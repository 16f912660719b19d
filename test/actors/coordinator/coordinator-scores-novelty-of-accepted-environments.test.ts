// The coordinator scores every accepted environment with eval's novelty index (library copies, near-copies of earlier
// accepted ones, new modules), writes the score to the archive record, and reports the novel fraction in
// metrics.jsonl's lines and the live view. A replayed acceptance is not scored twice.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { transition, type CoordinatorEffect, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { summary } from '../../../actors/coordinator/run-summary.js';
import { renderView } from '../../../actors/coordinator/run-view.js';
import { libraryNoveltyIndex } from '../../../eval/index.js';
import { repoPath } from '../../../runtime/paths.js';
import { freshState } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 3, maxStaleness: 1, iterations: Infinity, minutes: Infinity };
const copy = readFileSync(repoPath('envs', 'library', 'games', 'higher-lower.js'), 'utf8');
const fresh = `export const spec = { name: "count-vowels", description: "Say how many vowels the word has.", hint: "Count a, e, i, o, u.", maxTurns: 1 };
export default class Env { reset(seed) { this.w = ["banana", "kiwi", "apple"][seed % 3]; return { observation: "Word: " + this.w }; }
  step(a) { const n = [...this.w].filter((c) => "aeiou".includes(c)).length; return { observation: "done", reward: Number(a.trim()) === n ? 1 : 0, terminated: true, truncated: false, info: {} }; } }`;
const accepted = (envId: string, code: string) => ({
  envId, jobId: `j-${envId}`, iteration: 0, code, codeHash: envId, spec: { name: envId, description: 'd', hint: 'h', maxTurns: 4 }, family: 'games', parents: [],
  validation: { ms: 1 },
});

t.test('accepted environments are scored for novelty into the archive, metrics and the view', async (t) => {
  const s = freshState({ nextIteration: 1, novelty: libraryNoveltyIndex() });
  const records: Record<string, unknown>[] = [];
  const collect = (fx: CoordinatorEffect[]) => fx.forEach((f) => f.type === 'archive' && records.push(f.record));
  collect(transition(s, { type: 'accepted', body: accepted('e-copy', copy), now: 1 }, o).effects);
  collect(transition(s, { type: 'accepted', body: accepted('e-new', fresh), now: 2 }, o).effects);
  collect(transition(s, { type: 'accepted', body: accepted('e-again', `// the same, with a comment\n${fresh}`), now: 3 }, o).effects);
  collect(transition(s, { type: 'accepted', body: accepted('e-new', fresh), now: 4 }, o).effects); // replayed: not scored again
  const nov = records.map((r) => r.novelty as { novel: boolean; libraryCopyOf: string | null; acceptedSimilarity: number });
  t.equal(nov.length, 3);
  t.equal(nov[0]!.libraryCopyOf, 'games/higher-lower', 'a library module is a copy');
  t.equal(nov[1]!.novel, true, 'a new module is novel');
  t.equal(nov[2]!.novel, false, 'a near-copy of an earlier accepted one is not');
  t.equal(nov[2]!.acceptedSimilarity, 1);
  const m = summary(s.stats, 10);
  t.equal(m.novelty.scored, 3);
  t.equal(m.novelty.novel, 1);
  t.ok(Math.abs(m.novelty.novelFraction - 1 / 3) < 1e-12, 'novel fraction 1/3');
  t.match(renderView(s.stats, 10, o), /novel 1\/3 \(33%\)/, 'the live view shows it');
});
