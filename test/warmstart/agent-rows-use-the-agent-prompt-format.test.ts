// Warm-start agent rows come from sandbox-confirmed oracle episodes and exactly the agent's prompt format: every
// turn's agentPrompt(...) is a prefix of its row, followed by the oracle's action, and only actions (with their end
// of turn) are masked in.
import t from 'tap';
import { loadTokenizer } from '../../model/index.js';
import { agentPrompt, endOfTurn, type AgentTurn } from '../../actors/loop/prompts.js';
import { SandboxPool } from '../../sandbox/index.js';
import { agentExamples, loadLibrary, oracleEpisodes } from '../../warmstart/index.js';

const tok = loadTokenizer();

const library = loadLibrary();

t.test('agent rows from sandbox-confirmed oracle episodes', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const envs = library.filter((e) => ['towers-of-hanoi', 'config-lookup'].includes(e.name));
  const { episodes, stats } = await oracleEpisodes(pool, envs, [1, 2]);
  t.equal(stats.mismatched, 0, 'the vm copy and the sandbox agree on every observation');
  t.equal(episodes.length, 8, 'the oracles win these episodes, each seed played without and with the hint');
  for (const ep of episodes) {
    const env = envs.find((e) => e.name === ep.env)!;
    for (const hinted of [false, true]) {
      const maxPromptTokens = 300; // small, so long episodes drop history and need several rows
      const rows = agentExamples(tok, env, ep, hinted, maxPromptTokens);
      const history: AgentTurn[] = [];
      let masked = 0;
      for (const turn of ep.turns) {
        const p = agentPrompt(tok, { description: env.spec.description, ...(hinted ? { hint: env.spec.hint } : {}), history, observation: turn.observation, maxPromptTokens });
        const action = [...tok.encode(turn.action), endOfTurn(tok)];
        const row = rows.find((r) => p.every((x, i) => r.tokens[i] === x) && action.every((x, i) => r.tokens[p.length + i] === x));
        t.ok(row, `${ep.env} seed ${ep.seed} turn ${history.length}: prompt and action appear as a row prefix`);
        if (row) t.ok(action.every((_, i) => row.mask[p.length - 1 + i] === 1), 'the action is masked in');
        masked += action.length;
        history.push(turn);
      }
      t.equal(rows.reduce((a, r) => a + r.mask.reduce((x, y) => x + y, 0), 0), masked, 'nothing but actions is masked in');
    }
  }
});
