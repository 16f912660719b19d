// The self-play loop's role registry (composition root): name → actor factory, handed to the runtime's host.
// `--role all` runs every role listed here.
import { defineConfigSection } from '../runtime/config.js';
import type { RoleRegistry } from '../runtime/roles.js';
import { createEchoActor } from '../actors/echo/echo-actor.js';
import { createDesignerActor, loadLibraryEnvs } from '../actors/designer/index.js';
import { createAgentActor } from '../actors/agent/index.js';
import { createEvaluatorActor, settingIndex } from '../actors/evaluator/index.js';
import { createLearnerActor } from '../actors/learner/index.js';
import { loopOptionsOf, movedLoopPath, validateLoopOptions, type LoopOptionsInput } from '../actors/loop/index.js';
import { createSandboxActor } from '../actors/sandbox/sandbox-actor.js';
import { createCoordinatorActor } from '../actors/coordinator/coordinator-actor.js';
import { libraryNoveltyIndex } from '../eval/index.js';

// The composition root registers the config sections runtime/config.ts carries but does not own.
defineConfigSection('loop', (v, path) => validateLoopOptions(v as LoopOptionsInput, path), movedLoopPath);

export const ROLE_FACTORIES: RoleRegistry = {
  echo: () => createEchoActor(),
  designer: () => createDesignerActor(),
  agent: () => createAgentActor(),
  // Copies are judged against the library the loop uses: whole modules by eval's code similarity (the coordinator's
  // novelty figure), knob edits by their settings (a changed constant is a new environment, not a copy).
  evaluator: (env) => {
    const loop = loopOptionsOf(env.config);
    const library = loop.library || undefined;
    return createEvaluatorActor(env, loop.evaluator, loop.designer.output === 'knobs' ? () => settingIndex(loadLibraryEnvs(library)) : () => libraryNoveltyIndex(library));
  },
  learner: (env) => createLearnerActor(loopOptionsOf(env.config).learner),
  sandbox: (env) => createSandboxActor({ pool: loopOptionsOf(env.config).sandbox.limits }),
  coordinator: (env) =>
    createCoordinatorActor({
      runDir: env.config.run.dir,
      seed: env.config.run.seed,
      designsPerIteration: env.config.run.designsPerIteration,
      maxStaleness: env.config.run.maxStaleness,
      iterations: env.config.run.iterations,
      minutes: env.config.run.minutes,
      budgetTokens: env.config.run.budgetTokens ?? 0,
      budgetEpisodes: env.config.run.budgetEpisodes ?? 0,
      curvePoints: env.config.run.curvePoints ?? 0,
      ...(loopOptionsOf(env.config).learner.checkpoints?.dir ? { learnerDir: loopOptionsOf(env.config).learner.checkpoints!.dir! } : {}),
      // Novelty against the library the loop uses (the fixed baseline's and the designer's), in acceptance order.
      novelty: () => libraryNoveltyIndex(loopOptionsOf(env.config).library || undefined),
      // The fixed pool plays library picks: nothing designed to replay.
      ...(loopOptionsOf(env.config).ablations.fixedEnvs ? {} : { replay: loopOptionsOf(env.config).replay }),
      view: env.config.run.view === 'auto' ? (process.stderr.isTTY ? 'tty' : 'lines') : env.config.run.view,
      viewEveryMs: process.stderr.isTTY ? 1_000 : 10_000,
    }),
};
