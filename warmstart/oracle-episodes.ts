// Oracle episodes for agent imitation: the vm copy of a module picks the oracle's actions, the sandbox pool plays
// the same seeded episode, and an episode is kept only when both saw the same observations.
import type { SandboxPool } from '../sandbox/index.js';
import type { AgentTurn } from '../actors/loop/index.js';
import { vmEnv, type LibraryEnv } from './library.js';

export interface OracleEpisode {
  env: string;
  seed: number;
  /** The instance's hint as the sandbox returns it (reset's own, contract v2, else spec.hint): hinted rows show it. */
  hint: string;
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
}

/** Plays `seeds` episodes of each env with its oracle; keeps those the sandbox confirms and the oracle wins. */
export async function oracleEpisodes(pool: SandboxPool, envs: readonly LibraryEnv[], seeds: readonly number[], minReturn = 0.5): Promise<{ episodes: OracleEpisode[]; stats: OracleEpisodeStats }> {
  const stats: OracleEpisodeStats = { played: 0, kept: 0, mismatched: 0, lost: 0 };
  const episodes: OracleEpisode[] = [];
  for (const e of envs) {
    const hash = pool.register(e.code);
    const jobs = seeds.map(async (seed) => {
      const local = vmEnv(e);
      const episodeId = `warm-${e.name}-${seed}`;
      let obs = local.reset(seed);
      const first = await pool.reset({ codeHash: hash, seed, episodeId });
      if (first.observation !== obs) return 'mismatch' as const;
      const turns: AgentTurn[] = [];
      const actions: string[] = [];
      let total = 0;
      for (let t = 0; t < e.spec.maxTurns; t++) {
        const action = local.oracle(turns);
        actions.push(action);
        const mine = local.step(action);
        const r = await pool.step({ codeHash: hash, seed, episodeId, actions });
        if (r.observation !== mine.observation) return 'mismatch' as const;
        turns.push({ observation: obs, action });
        obs = r.observation;
        total = r.totalReward;
        if (r.done) break;
      }
      return { env: e.name, seed, hint: first.hint, turns, total };
    });
    for (const r of await Promise.all(jobs)) {
      stats.played++;
      if (r === 'mismatch') stats.mismatched++;
      else if (r.total < minReturn) stats.lost++;
      else (stats.kept++, episodes.push(r));
    }
  }
  return { episodes, stats };
}
