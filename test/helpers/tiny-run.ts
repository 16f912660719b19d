// Test helper: the config of a whole run (`spade start --role all`) small enough to finish in seconds — the loop
// library fixture, a freshly initialised 1-layer model, two designs an iteration, 2-turn episodes, no live view.
import { repoPath } from '../../runtime/paths.js';

export const TINY_RUN: readonly string[] = [
  `loop.library=${JSON.stringify(repoPath('test/fixtures/loop-library'))}`,
  'loop.policy.checkpoint=null',
  'loop.policy.init={"layers":1,"width":32,"heads":2,"contextLength":256,"seed":1}',
  'loop.k=2',
  'loop.agent.maxTurns=2',
  'loop.agent.maxTokens=4',
  'loop.agent.maxPromptTokens=200',
  'run.designsPerIteration=2',
  'run.view="off"',
  'roles.sandbox.threads=1',
];

/** `--set` arguments for each `path=value`. */
export const setArgs = (sets: readonly string[]): string[] => sets.flatMap((s) => ['--set', s]);
