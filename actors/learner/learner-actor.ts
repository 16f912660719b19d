// The learner as a host actor: no handler; start() builds the Learner (resuming from <run.dir>/learner) and runs its
// own consume loop on the learner's durable consumer, stop() drains it with a final checkpoint.
// Run the learner role on one host only: it owns the weights and the policy version.
import { resolve, join } from 'node:path';
import type { Actor } from '../../runtime/actor.js';
import { Learner } from './learner.js';
import type { LearnerOptions } from './options.js';

export function createLearnerActor(options: LearnerOptions = {}): Actor & { learner(): Learner | null } {
  let learner: Learner | null = null;
  return {
    role: 'learner',
    learner: () => learner,
    async start(env) {
      learner = await Learner.create({
        conn: env.conn, hostId: env.hostId, ackWaitMs: env.config.delivery.ackWaitMs, maxDeliver: env.config.delivery.maxDeliver, threads: env.roleConfig.threads, log: env.log,
        stateDir: resolve(options.stateDir ?? join(env.config.run.dir, 'learner')),
      }, options);
      await learner.start();
    },
    async stop() {
      await learner?.stop();
    },
  };
}
