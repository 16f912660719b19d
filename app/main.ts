// The self-play loop's composition root: its roles, its message catalog and its extra commands, handed to the
// runtime's command line. runtime/spade.js and runtime/start.js run `runSpade` from the compiled build. It sits in
// a folder of its own, above actors/ and the tools (eval, experiment, dashboard), so nothing below imports it.
import { runCli, type CliApp, type CliCommand } from '../runtime/cli.js';
import { LOOP_MESSAGES } from '../actors/loop/index.js';
import { ROLE_FACTORIES } from './roles.js';

type CommandRun = CliCommand['run'];

/** A command whose module is loaded on use: only `spade env` needs the sandbox's command module, and so on. */
const lazy = <K extends string>(summary: string, load: () => Promise<Record<K, CommandRun>>, name: K): CliCommand => ({
  summary,
  run: async (argv) => (await load())[name](argv),
});

export const SPADE_APP: CliApp = {
  roles: ROLE_FACTORIES,
  catalog: LOOP_MESSAGES,
  commands: {
    env: lazy('check or play environment modules (spade env --help)', () => import('../sandbox/cli-env.js'), 'envCommand'),
    eval: lazy('play checkpoints on a suite of environments, with confidence intervals (spade eval --help)', () => import('../eval/cli-eval.js'), 'evalCommand'),
    model: lazy('info, score, generate or export a model directory: a SPADE checkpoint or Hugging Face llama/qwen2/qwen3 (spade model --help)', () => import('../model/cli-model.js'), 'modelCommand'),
    experiment: lazy('run the arms (SPADE, fixed environments, ablations) at equal policy-token compute and evaluate them (spade experiment --help)', () => import('../experiment/index.js'), 'experimentCommand'),
    dashboard: lazy('serve a live page of a run: figures, curves, environments with lineage, episodes (spade dashboard --help)', () => import('../dashboard/index.js'), 'dashboardCommand'),
    report: lazy('write one self-contained HTML report of a run or an experiment (spade report --help)', () => import('../dashboard/index.js'), 'reportCommand'),
  },
};

/** The `spade` command line of this build. */
export function runSpade(argv: string[]): Promise<void> {
  return runCli(argv, SPADE_APP);
}
