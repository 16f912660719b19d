// The self-play loop's composition root: its roles, its message catalog and its extra commands, handed to the
// runtime's command line. runtime/spade.js and runtime/start.js run `runSpade` from the compiled build. It sits in
// a folder of its own, above actors/ and the tools (eval, experiment, dashboard), so nothing below imports it.
import { runCli, type CliApp } from '../runtime/cli.js';
import { LOOP_MESSAGES } from '../actors/loop/index.js';
import { ROLE_FACTORIES } from './roles.js';

export const SPADE_APP: CliApp = {
  roles: ROLE_FACTORIES,
  catalog: LOOP_MESSAGES,
  commands: {
    env: {
      summary: 'check or play environment modules (spade env --help)',
      // Loaded on use: only `spade env` needs the sandbox's command module.
      run: async (argv) => (await import('../sandbox/cli-env.js')).envCommand(argv),
    },
    eval: {
      summary: 'play checkpoints on a suite of environments, with confidence intervals (spade eval --help)',
      run: async (argv) => (await import('../eval/cli-eval.js')).evalCommand(argv),
    },
    model: {
      summary: 'info, score, generate or export a model directory: a SPADE checkpoint or Hugging Face llama/qwen2/qwen3 (spade model --help)',
      run: async (argv) => (await import('../model/cli-model.js')).modelCommand(argv),
    },
    experiment: {
      summary: 'run the arms (SPADE, fixed environments, ablations) at equal policy-token compute and evaluate them (spade experiment --help)',
      run: async (argv) => (await import('../experiment/index.js')).experimentCommand(argv),
    },
    dashboard: {
      summary: 'serve a live page of a run: figures, curves, environments with lineage, episodes (spade dashboard --help)',
      run: async (argv) => (await import('../dashboard/index.js')).dashboardCommand(argv),
    },
    report: {
      summary: 'write one self-contained HTML report of a run or an experiment (spade report --help)',
      run: async (argv) => (await import('../dashboard/index.js')).reportCommand(argv),
    },
  },
};

/** The `spade` command line of this build. */
export function runSpade(argv: string[]): Promise<void> {
  return runCli(argv, SPADE_APP);
}
