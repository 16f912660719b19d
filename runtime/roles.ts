// The registry of roles a host can run: name → actor factory. `--role all` runs every one.
import type { ActorFactory } from './actor.js';
import { defineConfigSection } from './config.js';
import { ConfigError } from './errors.js';
import { createEchoActor } from '../actors/echo/echo-actor.js';
import { createDesignerActor } from '../actors/designer/designer-actor.js';
import { createAgentActor } from '../actors/agent/agent-actor.js';
import { createEvaluatorActor } from '../actors/evaluator/evaluator-actor.js';
import { createLearnerActor } from '../actors/learner/learner-actor.js';
import { loopOptionsOf, validateLoopOptions, type LoopOptionsInput } from '../actors/loop-options.js';
import { createSandboxActor } from '../actors/sandbox/sandbox-actor.js';
import { createCoordinatorActor } from '../actors/coordinator/coordinator-actor.js';

// The composition root registers the sections runtime/config.ts carries but does not own.
defineConfigSection('loop', (v, path) => validateLoopOptions(v as LoopOptionsInput, path));

export const ROLE_FACTORIES: Record<string, ActorFactory> = {
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
      view: env.config.run.view === 'auto' ? (process.stderr.isTTY ? 'tty' : 'lines') : env.config.run.view,
      viewEveryMs: process.stderr.isTTY ? 1_000 : 10_000,
    }),
};

/** Roles that `all` expands to: every registered role. */
export function defaultRoles(): string[] {
  return Object.keys(ROLE_FACTORIES);
}

/** Expands `all` and checks that every role exists; throws ConfigError naming host.roles. */
export function resolveRoles(requested: string[]): string[] {
  const out = new Set<string>();
  for (const r of requested) {
    if (r === 'all') for (const d of defaultRoles()) out.add(d);
    else if (ROLE_FACTORIES[r]) out.add(r);
    else throw new ConfigError('host.roles', `config.host.roles: unknown role ${JSON.stringify(r)} (known: all, ${Object.keys(ROLE_FACTORIES).join(', ')})`);
  }
  return [...out];
}
