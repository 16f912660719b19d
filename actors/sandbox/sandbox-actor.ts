// The sandbox role: serves validation, reset and step requests from the cluster out of a local
// SandboxPool (QuickJS in Piscina workers, never on this thread). Any sandbox host serves any episode
// (queue group); each host also listens on its own subject so clients can keep an episode's steps on
// the host whose worker holds it live (affinity — an optimisation only; a miss replays from reset).
import type { Msg, Subscription } from '@nats-io/transport-node';
import type { Actor, ActorEnv } from '../../runtime/actor.js';
import { isMessageError } from '../../runtime/errors.js';
import { decode, encode } from '../../runtime/messages.js';
import { sayOnce } from '../../runtime/log.js';
import { Semaphore } from '../../runtime/semaphore.js';
import { QUEUE_GROUPS, SUBJECTS } from '../../runtime/subjects.js';
import { SandboxPool, toWireError, type SandboxOptions } from '../../sandbox/index.js';
import { SandboxReply, SandboxRequest } from './sandbox-messages.js';

/** Subject on which one host answers directly (affinity). */
export function sandboxHostSubject(hostId: string): string {
  return SUBJECTS.sandboxStepOnHost(hostId);
}

export interface SandboxActorOptions {
  pool?: SandboxOptions;
}

export function createSandboxActor(opts: SandboxActorOptions = {}): Actor {
  let pool: SandboxPool | undefined;
  const subs: Subscription[] = [];
  const inflight = new Set<Promise<void>>();
  let env: ActorEnv | undefined;

  // Reconnects so far. A server lets a responder publish to a request's reply subject only if it delivered that request
  // (allow_responses), so an answer to a request taken before a reconnect is refused by the new server: it is not sent.
  let connections = 0;
  let say: (line: string) => void = () => undefined;

  async function serve(m: Msg, slots: Semaphore): Promise<void> {
    const taken = connections;
    await slots.acquire();
    try {
      let reply;
      try {
        const req = decode(SandboxRequest, m.data, { subject: m.subject });
        const ref = { ...(req.code !== undefined ? { code: req.code } : {}), ...(req.codeHash !== undefined ? { codeHash: req.codeHash } : {}), seed: req.seed ?? 0, ...(req.episodeId !== undefined ? { episodeId: req.episodeId } : {}) };
        const value =
          req.op === 'validate'
            ? await pool!.validate(req.code ?? '', req.seeds !== undefined ? { seeds: req.seeds } : {})
            : req.op === 'reset'
              ? await pool!.reset(ref)
              : await pool!.step({ ...ref, actions: req.actions ?? [] });
        reply = { ok: true, value, host: env!.hostId };
      } catch (err) {
        const error = isMessageError(err) ? { name: err.name, message: err.message, code: err.code } : toWireError(err);
        reply = { ok: false, error, host: env!.hostId };
      }
      if (m.reply && taken !== connections) say(`not answering requests taken before reconnecting to NATS (the server now serving this host did not deliver them, so it refuses their answers); the requesters time out and ask again`);
      else if (m.reply) m.respond(encode(SandboxReply, reply));
    } finally {
      slots.release();
    }
  }

  return {
    role: 'sandbox',
    async start(e) {
      env = e;
      say = sayOnce(e.log);
      void (async () => {
        for await (const st of e.conn.nc.status()) if (st.type === 'reconnect') connections++;
      })().catch(() => undefined);
      pool = new SandboxPool({ ...opts.pool, workers: opts.pool?.workers ?? Math.max(1, e.roleConfig.threads) });
      const slots = new Semaphore(e.roleConfig.concurrency);
      const onMsg = (_err: Error | null, m: Msg) => {
        const p = serve(m, slots);
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
      };
      for (const subject of [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep])
        subs.push(e.conn.nc.subscribe(subject, { queue: QUEUE_GROUPS.sandbox, callback: onMsg }));
      subs.push(e.conn.nc.subscribe(sandboxHostSubject(e.hostId), { callback: onMsg }));
      await e.conn.nc.flush();
    },
    async stop() {
      for (const s of subs) s.unsubscribe();
      await Promise.allSettled([...inflight]);
      await pool?.close();
    },
  };
}
