// Oracle episodes for agent imitation: the vm copy of a module picks the oracle's actions, the sandbox pool plays
// the same seeded episode, and an episode is kept only when both saw the same observations. Each seed is played
// twice: without the hint, and with it (the hint is the oracle's third argument), so a hint-aware oracle shows what
// the hint is worth: the hinted demonstration copies the hidden state, the unhinted one searches.
import type { SandboxPool } from '../sandbox/index.js';
import type { AgentTurn } from '../actors/loop/index.js';
import { vmEnv, type LibraryEnv } from './library.js';

export interface OracleEpisode {
  env: string;
  seed: number;
  /** The instance's hint as the sandbox returns it (reset's own, contract v2, else spec.hint): hinted rows show it. */
  hint: string;
  /** True: the oracle was given the hint, and the episode is shown as a hinted demonstration. */
  hinted: boolean;
  /** Every turn: the observation the agent saw and the oracle's action. */
  turns: AgentTurn[];
  /** Sum of rewards reported by the sandbox. */
  total: number;
}

export interface OracleEpisodeStats {
  played: number;
  kept: number;
  /** Episodes where the vm and the sandbox disagreed (dropped). */
  mismatched: number;
  /** Episodes the oracle lost (total < minReturn; dropped: the agent should imitate winning play). */
  lost: number;
  /** Kept hinted episodes whose actions differ from the same seed's unhinted ones (the hint changed the play). */
  hintChanged: number;
}

/** The seeds to play: the same for every env, or chosen per env. */
export type SeedPlan = readonly number[] | ((env: LibraryEnv) => readonly number[]);

export interface OraclePlay {
  /** An episode is kept when the oracle's total reaches this (default 0.5). */
  minReturn?: number;
  /**
   * Type each action as a word of running text, after a space (default false). The tokenizer spells a number after a
   * space with a spaced first digit (" 4" "8" "2" "1") and a bare one at the start of a turn ("4" "8" "2" "1"), so a
   * number copied from the observation shares its tokens with the observation only when the action is spaced.
   */
  spacedActions?: boolean;
}

/**
 * Plays each env's seeds with its oracle, once without and once with the hint; keeps the episodes the sandbox confirms
 * and the oracle wins. A hinted episode whose actions equal the unhinted one's is kept too (the hint did not change
 * the best play), so every env has hinted demonstrations.
 */
export async function oracleEpisodes(pool: SandboxPool, envs: readonly LibraryEnv[], seeds: SeedPlan, play: OraclePlay = {}): Promise<{ episodes: OracleEpisode[]; stats: OracleEpisodeStats }> {
  const minReturn = play.minReturn ?? 0.5;
  const typed = (action: string): string => (play.spacedActions && !/^\s/.test(action) ? ` ${action}` : action);
  const stats: OracleEpisodeStats = { played: 0, kept: 0, mismatched: 0, lost: 0, hintChanged: 0 };
  const episodes: OracleEpisode[] = [];
  for (const e of envs) {
    const hash = pool.register(e.code);
    const list = typeof seeds === 'function' ? seeds(e) : seeds;
    const playOne = async (seed: number, hinted: boolean): Promise<OracleEpisode | 'mismatch'> => {
      const local = vmEnv(e);
      const episodeId = `warm-${e.name}-${seed}-${hinted ? 'h' : 'n'}`;
      const start = local.reset(seed);
      let obs = start.observation;
      const first = await pool.reset({ codeHash: hash, seed, episodeId });
      if (first.observation !== obs || first.hint !== start.hint) return 'mismatch';
      const turns: AgentTurn[] = [];
      const own: AgentTurn[] = []; // the oracle reads its history with its actions as it wrote them
      const actions: string[] = [];
      let total = 0;
      for (let t = 0; t < e.spec.maxTurns; t++) {
        const written = local.oracle(own, hinted ? first.hint : undefined);
        const action = typed(written);
        actions.push(action);
        const mine = local.step(action);
        const r = await pool.step({ codeHash: hash, seed, episodeId, actions });
        if (r.observation !== mine.observation) return 'mismatch';
        turns.push({ observation: obs, action });
        own.push({ observation: obs, action: written });
        obs = r.observation;
        total = r.totalReward;
        if (r.done) break;
      }
      return { env: e.name, seed, hint: first.hint, hinted, turns, total };
    };
    // Bounded concurrency: thousands of seeds per env would otherwise queue every episode on the pool at once.
    for (let lo = 0; lo < list.length; lo += 64) {
      const batch = list.slice(lo, lo + 64);
      const results = await Promise.all(batch.map(async (seed) => [await playOne(seed, false), await playOne(seed, true)] as const));
      for (const [plain, hinted] of results) {
        for (const r of [plain, hinted]) {
          stats.played++;
          if (r === 'mismatch') stats.mismatched++;
          else if (r.total < minReturn) stats.lost++;
          else (stats.kept++, episodes.push(r));
        }
        if (plain !== 'mismatch' && hinted !== 'mismatch' && hinted.total >= minReturn
          && hinted.turns.map((t) => t.action).join('\n') !== plain.turns.map((t) => t.action).join('\n')) stats.hintChanged++;
      }
    }
  }
  return { episodes, stats };
}
