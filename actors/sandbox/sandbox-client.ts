// A client for the sandbox role with the same calls as a local SandboxPool (validate, reset, step),
// so designers and agents run against sandboxes on any host. Sends code only when the serving host
// asks for it, and keeps each episode on the host that last served it while that host answers.
import type { NatsConnection } from '@nats-io/transport-node';
import { decode, encode } from '../../runtime/messages.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import {
  codeHash as hashOf, fromWireError, isSandboxCodeMissing, SandboxError,
  type EpisodeRef, type ResetResult, type StepRequest, type StepResult, type ValidationReport, type WireError,
} from '../../sandbox/index.js';
import { sandboxHostSubject } from './sandbox-actor.js';
import { SandboxReply, SandboxRequest, type SandboxRequestBody } from './sandbox-messages.js';

/** What designers and agents need from a sandbox: satisfied by SandboxPool and SandboxClient alike. */
export interface Sandbox {
  validate(code: string, options?: { seeds?: number }): Promise<ValidationReport>;
  reset(req: EpisodeRef): Promise<ResetResult>;
  step(req: StepRequest): Promise<StepResult>;
}

export interface SandboxClientOptions {
  /** Per request; validation of a slow environment takes longest. */
  timeoutMs?: number;
  validateTimeoutMs?: number;
  /** Episodes remembered for affinity. */
  maxEpisodes?: number;
}

export class SandboxClient implements Sandbox {
  private readonly codes = new Map<string, string>();
  private readonly affinity = new Map<string, string>();
  private readonly opts: Required<SandboxClientOptions>;

  constructor(private readonly nc: NatsConnection, opts: SandboxClientOptions = {}) {
    this.opts = { timeoutMs: 10_000, validateTimeoutMs: 120_000, maxEpisodes: 10_000, ...opts };
  }

  async validate(code: string, options: { seeds?: number } = {}): Promise<ValidationReport> {
    return (await this.call(SUBJECTS.sandboxValidate, { op: 'validate', code, ...(options.seeds !== undefined ? { seeds: options.seeds } : {}) }, this.opts.validateTimeoutMs)) as ValidationReport;
  }

  async reset(req: EpisodeRef): Promise<ResetResult> {
    return (await this.episodeCall({ op: 'reset', ...this.ref(req) }, req)) as ResetResult;
  }

  async step(req: StepRequest): Promise<StepResult> {
    return (await this.episodeCall({ op: 'step', ...this.ref(req), actions: req.actions }, req)) as StepResult;
  }

  /** Forget an episode's affinity (call when it ends). */
  release(episodeId: string): void {
    this.affinity.delete(episodeId);
  }

  private ref(req: EpisodeRef) {
    const hash = req.codeHash ?? hashOf(req.code ?? '');
    if (req.code !== undefined) this.codes.set(hash, req.code);
    return { codeHash: hash, seed: req.seed, ...(req.episodeId !== undefined ? { episodeId: req.episodeId } : {}) };
  }

  private async episodeCall(body: SandboxRequestBody, req: EpisodeRef): Promise<unknown> {
    const host = req.episodeId !== undefined ? this.affinity.get(req.episodeId) : undefined;
    const subject = host ? sandboxHostSubject(host) : SUBJECTS.sandboxStep;
    let value;
    try {
      value = await this.call(subject, body, this.opts.timeoutMs, req.episodeId);
    } catch (err) {
      if (!host || !/no responders|timeout/i.test((err as Error).message)) throw err;
      // The affine host is gone: any other host replays the episode from reset.
      if (req.episodeId !== undefined) this.affinity.delete(req.episodeId);
      value = await this.call(SUBJECTS.sandboxStep, body, this.opts.timeoutMs, req.episodeId);
    }
    return value;
  }

  private async call(subject: string, body: SandboxRequestBody, timeout: number, episodeId?: string, withCode = false): Promise<unknown> {
    const hash = body.codeHash;
    const payload = withCode && hash ? { ...body, code: this.codes.get(hash) } : body;
    let msg;
    try {
      msg = await this.nc.request(subject, encode(SandboxRequest, payload), { timeout });
    } catch (err) {
      throw new SandboxError(`sandbox request on ${subject} failed: ${(err as Error).message}`, { code: 'SANDBOX_UNREACHABLE', data: { subject }, cause: err });
    }
    const reply = decode(SandboxReply, msg.data, { subject });
    if (reply.ok) {
      if (episodeId !== undefined) {
        if (this.affinity.size >= this.opts.maxEpisodes) this.affinity.delete(this.affinity.keys().next().value!);
        this.affinity.set(episodeId, reply.host);
      }
      return reply.value;
    }
    const err = fromWireError(reply.error as WireError);
    if (isSandboxCodeMissing(err) && !withCode && hash && this.codes.has(hash)) return this.call(subject, body, timeout, episodeId, true);
    throw err;
  }
}
