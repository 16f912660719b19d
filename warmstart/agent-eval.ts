// Measures a checkpoint as an agent: plays every library environment on unseen seeds, with and without the hint,
// sampling each action from the policy in the agent prompt format and stepping the episode in the sandbox.
import { ModelSession, Sampler, loadModel, promptFormat, type PromptFormat } from '../model/index.js';
import { OptionsError } from '../runtime/options.js';
import { SandboxPool } from '../sandbox/index.js';
import { agentPrompt, type AgentTurn } from '../actors/loop/index.js';
import { loadLibrary, type LibraryEnv } from './library.js';

export interface AgentEvalOptions {
  checkpoint: string;
  seeds?: number[];
  temperature?: number;
  /** Longest action (the loop's agent.maxTokens). */
  maxTokens?: number;
  maxPromptTokens?: number;
  maxBatch?: number;
  callTimeoutMs?: number;
}

export const DEFAULT_AGENT_EVAL_OPTIONS: Required<Omit<AgentEvalOptions, 'checkpoint'>> = {
  seeds: [1001], temperature: 1, maxTokens: 48, maxPromptTokens: 1024, maxBatch: 32, callTimeoutMs: 200,
};

export interface AgentEnvResult {
  env: string;
  family: string;
  /** Mean return over the seeds. */
  hint: number;
  noHint: number;
}

export interface AgentEvalResult {
  options: Required<AgentEvalOptions>;
  envs: AgentEnvResult[];
  meanHint: number;
  meanNoHint: number;
  turns: number;
  seconds: number;
}

/** The warm-start evals stop the project's format at <|end_turn|> only (as they always have); a chat at its stop ids. */
export const evalStops = (f: PromptFormat): number[] => (f.kind === 'spade' ? [f.endOfTurn] : [...f.stopIds]);

export async function evaluateAgent(options: AgentEvalOptions): Promise<AgentEvalResult> {
  const o = { ...DEFAULT_AGENT_EVAL_OPTIONS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as Required<AgentEvalOptions>;
  const ck = await loadModel(o.checkpoint); // a SPADE checkpoint or a Hugging Face directory
  if (ck.codec === undefined) throw new OptionsError('options.checkpoint', 'a model with a tokenizer', o.checkpoint);
  const tok = promptFormat(ck.codec);
  const session = await ModelSession.create(ck.model, { graphs: ['sample'] });
  const sampler = new Sampler(session, ck.params, ck.policyVersion, tok, { maxBatch: o.maxBatch, stopTokens: evalStops(tok), seed: 11 });
  const pool = new SandboxPool({ workers: 2, callTimeoutMs: o.callTimeoutMs, wallClockKillMs: Math.max(5000, o.callTimeoutMs * 10) });
  const t0 = performance.now();
  let turns = 0;
  const play = async (e: LibraryEnv, seed: number, hinted: boolean): Promise<number> => {
    const codeHash = pool.register(e.code);
    const episodeId = `agent-eval-${e.name}-${seed}-${hinted}`;
    const first = await pool.reset({ codeHash, seed, episodeId });
    let obs = first.observation;
    const history: AgentTurn[] = [];
    const actions: string[] = [];
    let total = 0;
    for (let t = 0; t < e.spec.maxTurns; t++) {
      const prompt = agentPrompt(tok, { description: e.spec.description, ...(hinted ? { hint: first.hint } : {}), history, observation: obs, maxPromptTokens: o.maxPromptTokens });
      const action = (await sampler.generate({ prompt, temperature: o.temperature, maxTokens: o.maxTokens })).text;
      actions.push(action);
      const r = await pool.step({ codeHash, seed, episodeId, actions });
      turns++;
      history.push({ observation: obs, action });
      obs = r.observation;
      total = r.totalReward;
      if (r.done) break;
    }
    return total;
  };
  const library = loadLibrary();
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  let envs: AgentEnvResult[];
  try {
    envs = await Promise.all(library.map(async (e) => {
      const [h, n] = await Promise.all([true, false].map((hinted) => Promise.all(o.seeds.map((s) => play(e, s, hinted)))));
      return { env: e.name, family: e.family, hint: mean(h!), noHint: mean(n!) };
    }));
  } finally {
    await sampler.close();
    await session.release();
    await pool.close();
  }
  return {
    options: o, envs, meanHint: mean(envs.map((e) => e.hint)), meanNoHint: mean(envs.map((e) => e.noHint)), turns, seconds: (performance.now() - t0) / 1000,
  };
}
