// The self-play loop's role registry (composition root): name → actor factory, handed to the runtime's host.
// `--role all` runs every role listed here.
import { defineConfigSection } from '../runtime/config.js';
import type { RoleRegistry } from '../runtime/roles.js';
import { createEchoActor } from './echo/echo-actor.js';
import { createDesignerActor } from './designer/designer-actor.js';
import { createAgentActor } from './agent/agent-actor.js';
import { createEvaluatorActor } from './evaluator/evaluator-actor.js';
import { createLearnerActor } from './learner/learner-actor.js';
import { loopOptionsOf, movedLoopPath, validateLoopOptions, type LoopOptionsInput } from './loop/options.js';
import { createSandboxActor } from './sandbox/sandbox-actor.js';
import { createCoordinatorActor } from './coordinator/coordinator-actor.js';
import { libraryNoveltyIndex } from '../eval/index.js';

// The composition root registers the config sections runtime/config.ts carries but does not own.
defineConfigSection('loop', (v, path) => validateLoopOptions(v as LoopOptionsInput, path), movedLoopPath);

export const ROLE_FACTORIES: RoleRegistry = {
  echo: () => createEchoActor(),
  designer: () => createDesignerActor(),
  agent: () => createAgentActor(),
  evaluator: (env) => createEvaluatorActor(env, loopOptionsOf(env.config).evaluator),
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
