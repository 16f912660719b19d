// The runtime's own test actor: takes an echo job, optionally waits or fails on purpose, and
// publishes a result. Tests and `npm run bench:runtime` drive the host through it.
import type { Actor, ActorOutput, HandlerContext } from '../../runtime/actor.js';
import { delay } from '../../runtime/delay.js';
import { HostError } from '../../runtime/errors.js';
import { EchoJob, EchoResult, type EchoJobBody as Job } from '../../runtime/message-types.js';
import { CONSUMER_DECLS } from '../../runtime/topology-decls.js';
import { SUBJECTS } from '../../runtime/subjects.js';

/** Pure logic: the result for a job on a given delivery. */
export function echoResult(job: Job, ctx: Pick<HandlerContext, 'hostId' | 'deliveryCount'>): ActorOutput {
  return {
    subject: SUBJECTS.resultEcho,
    type: EchoResult,
    body: { id: job.id, host: ctx.hostId, pid: process.pid, deliveryCount: ctx.deliveryCount, bytes: job.payload.length },
    msgId: `echo:${job.id}`,
  };
}

export function createEchoActor(): Actor<Job> {
  return {
    role: 'echo',
    input: { consumer: CONSUMER_DECLS.find((c) => c.role === 'echo')!, type: EchoJob },
    async handle(job, ctx) {
      if (job.failTimes !== undefined && ctx.deliveryCount <= job.failTimes)
        throw new HostError(`job ${job.id} fails on purpose (delivery ${ctx.deliveryCount} of failTimes ${job.failTimes})`, { id: job.id });
      // A stopped job fails: the host naks it when draining, else retries it (a task past its timeout).
      if (job.workMs && (await delay(`echo job ${job.id}: work`, job.workMs, ctx.signal)) === 'aborted')
        throw new HostError(`job ${job.id} was stopped during its ${job.workMs} ms of work`, { id: job.id, stopped: true }, ctx.signal.reason);
      return job.reply === false ? [] : [echoResult(job, ctx)];
    },
  };
}
