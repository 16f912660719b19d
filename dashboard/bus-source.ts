// The dashboard's view of a running cluster: a read-only client of the bus. It follows the environment, trajectory and
// metric streams from their start through ephemeral consumers, watches the policy version, polls what `spade status`
// reads, and folds all of it into a RunModel. Episodes are not held in memory: the model keeps each group's stream
// sequence, and one episode is read back (a direct get of that message) when the page asks for it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvAccepted, EnvRejected, LabeledBatch, TrajectoryGroup, unpackInts, validateLoopOptions, resolvePolicyModel } from '../actors/loop/index.js';
import { libraryNoveltyIndex } from '../eval/index.js';
import { loadModelCodec, promptFormat, type PromptFormat } from '../model/index.js';
import type { Connection } from '../runtime/connection.js';
import { followKv, followStream, type Follow } from '../runtime/follow.js';
import { Metric, PolicyVersion } from '../runtime/message-types.js';
import { decode, decodeAny } from '../runtime/messages.js';
import { readStatus } from '../runtime/status.js';
import { BUCKETS, POLICY_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from '../runtime/subjects.js';
import { ReportInputError } from './errors.js';
import { agentView, designerView } from './prompt-text.js';
import { RunModel, type EnvText } from './run-model.js';

/** One turn of an episode as the trajectory viewer shows it. */
export interface TurnView {
  turn: number;
  observation: string;
  hint: string | null;
  action: string;
  reward: number;
  /** The policy versions that sampled the action's tokens (first and last). */
  versions: [number, number] | null;
  tokens: number;
}

export interface EpisodeView {
  trajId: string;
  envId: string;
  hinted: boolean;
  seed: number;
  return: number;
  terminated: boolean;
  error: string | null;
  /** The advantage the learner trained every token of this episode with (null until the evaluator labeled it). */
  advantage: number | null;
  turns: TurnView[];
}

/** The loop options a run was started with, from its directory's config.json (defaults without one). */
export function runLoopOptions(runDir: string | undefined): { loop: ReturnType<typeof validateLoopOptions>; designsPerIteration: number } {
  let raw: { loop?: unknown; run?: { designsPerIteration?: number } } = {};
  if (runDir && existsSync(join(runDir, 'config.json'))) {
    try {
      raw = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as typeof raw;
    } catch {
      raw = {};
    }
  }
  return { loop: validateLoopOptions((raw.loop ?? {}) as never), designsPerIteration: raw.run?.designsPerIteration ?? Infinity };
}

/**
 * The prompt format the run's policy used: its model directory's own tokenizer (a SPADE checkpoint's, or a Hugging
 * Face model's with its chat template; no weight is read), else the configured vocab's.
 */
export async function runPromptFormat(loop: ReturnType<typeof validateLoopOptions>): Promise<PromptFormat> {
  const m = resolvePolicyModel(loop.policy);
  if (m.kind !== 'checkpoint') return promptFormat(m.tokenizer);
  const codec = await loadModelCodec(m.dir);
  if (codec === undefined) throw new ReportInputError(`the run's policy ${m.dir} has no tokenizer (a Hugging Face directory needs tokenizer.json)`, m.dir);
  return promptFormat(codec);
}

export class BusSource {
  readonly model: RunModel;
  private readonly advantages = new Map<string, number>();
  private readonly follows: Follow<unknown>[] = [];
  private readonly loops: Promise<void>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly behind: Promise<void>[] = [];

  constructor(private readonly conn: Connection, private readonly format: PromptFormat, source: string, designsPerIteration: number, library: string) {
    const index = libraryNoveltyIndex(library || undefined);
    this.model = new RunModel(source, designsPerIteration, Date.now(), index);
  }

  onChange(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }

  /** Follows the run; `cluster` false (a finished run's store read by a private server) skips what `spade status` reads. */
  async start(statusEveryMs = 2000, cluster = true): Promise<void> {
    await this.follow(STREAMS.envs, SUBJECT_WILDCARDS.env, (subject, data) => this.onEnv(subject, data));
    await this.follow(STREAMS.trajectories, SUBJECT_WILDCARDS.traj, (subject, data, seq) => this.onTraj(subject, data, seq));
    await this.follow(STREAMS.metrics, SUBJECT_WILDCARDS.metrics, (_s, data) => {
      let d;
      try {
        d = decodeAny(data);
      } catch {
        return; // metrics are best-effort, as the coordinator reads them
      }
      if (d.type === Metric.type) this.model.metric(d.body as never);
    });
    const kv = await this.conn.kvm.open(BUCKETS.policy);
    const watch = await followKv(kv, POLICY_KEYS.version);
    this.follows.push(watch as Follow<unknown>);
    this.loops.push((async () => {
      for await (const e of watch) {
        if (e.operation === 'PUT' && e.value.length > 0) (this.model.policyVersion(decode(PolicyVersion, e.value).version), this.changed());
      }
    })().catch(() => undefined));
    const poll = async () => {
      try {
        const s = await readStatus(this.conn);
        const now = Date.now();
        this.model.cluster = {
          members: s.members.map((m) => ({ hostId: m.hostId, roles: m.roles, inflight: m.inflight, handled: m.handled, failed: m.failed, draining: m.draining, ageSec: (now - m.ts) / 1000 })),
          consumers: s.streams.flatMap((st) => st.consumers.map((c) => ({ stream: st.name, name: c.name, pending: c.pending, ackPending: c.ackPending, redelivered: c.redelivered }))),
          deadLetters: s.deadLetters,
          policyVersion: s.policyVersion,
        };
        this.changed();
      } catch {
        // The cluster may be gone (a finished run); the last view stays.
      }
    };
    if (!cluster) return;
    await poll();
    this.timer = setInterval(() => void poll(), statusEveryMs);
    this.timer.unref();
  }

  /** Resolves once every stream has been read up to the message that was its last when start() began. */
  caughtUp(): Promise<void> {
    return Promise.all(this.behind).then(() => undefined);
  }

  private async follow(stream: string, filter: string, each: (subject: string, data: Uint8Array, seq: number) => void): Promise<void> {
    const last = (await this.conn.jsm.streams.info(stream)).state;
    let reached!: () => void;
    this.behind.push(new Promise<void>((r) => (reached = r)));
    if (last.messages === 0) reached();
    const msgs = await followStream(this.conn, { stream, filter, from: 'all' });
    this.follows.push(msgs as Follow<unknown>);
    this.loops.push((async () => {
      for await (const m of msgs) {
        // The run began about when its first stored event was written (a dashboard may join a run late).
        this.model.stats.startedAt = Math.min(this.model.stats.startedAt, Math.floor(m.info.timestampNanos / 1e6));
        try {
          each(m.subject, m.data, m.seq);
        } catch {
          // an undecodable message is the dead-letter path's business, not the viewer's
        }
        if (m.seq >= last.last_seq) reached();
        this.changed();
      }
    })().catch(() => undefined).finally(() => reached()));
  }

  private onEnv(subject: string, data: Uint8Array): void {
    if (subject === SUBJECTS.envAccepted) {
      const a = decode(EnvAccepted, data);
      const seen = a.designer ? designerView(this.format, a.designer.promptTokens) : { document: null, parentCode: null };
      const text: EnvText = { code: a.code, description: a.spec.description, hint: a.spec.hint, maxTurns: a.spec.maxTurns, ...seen, validation: a.validation };
      this.model.accepted({ envId: a.envId, iteration: a.iteration, name: a.spec.name, family: a.family, doc: a.doc?.id ?? null, parents: a.parents }, text);
    } else if (subject === SUBJECTS.envRejected) {
      const r = decode(EnvRejected, data);
      const seen = designerView(this.format, r.designer.promptTokens);
      this.model.rejected({ envId: r.envId, iteration: r.iteration, stage: r.stage, reason: r.reason, doc: r.doc?.id ?? null, parents: r.parents },
        { code: r.code, description: null, hint: null, maxTurns: null, ...seen, validation: null });
    }
  }

  private onTraj(subject: string, data: Uint8Array, seq: number): void {
    if (subject === SUBJECTS.trajRaw) {
      const g = decode(TrajectoryGroup, data);
      this.model.episodes(g.env.envId, g.episodes.map((e) => ({
        trajId: e.trajId, envId: g.env.envId, hinted: e.hinted, seed: e.seed, return: e.return, turns: e.turns.length, error: e.error ?? null, ref: seq,
      })));
    } else if (subject === SUBJECTS.trajLabeled) {
      const b = decode(LabeledBatch, data);
      for (const t of b.trajectories) this.advantages.set(t.trajId, t.advantage);
      this.model.labeled({ ...b, trajectories: b.trajectories.length });
    }
  }

  /** One episode, turn by turn, read back from its group's stored message. */
  async episode(trajId: string): Promise<EpisodeView | null> {
    const ref = this.model.episode(trajId);
    if (!ref) return null;
    const stored = await this.conn.jsm.streams.getMessage(STREAMS.trajectories, { seq: ref.ref });
    if (!stored) return null;
    const g = decode(TrajectoryGroup, stored.data);
    const e = g.episodes.find((x) => x.trajId === trajId);
    if (!e) return null;
    return {
      trajId, envId: g.env.envId, hinted: e.hinted, seed: e.seed, return: e.return, terminated: e.terminated, error: e.error ?? null,
      advantage: this.advantages.get(trajId) ?? null,
      turns: e.turns.map((s, i) => {
        const seen = agentView(this.format, s.promptTokens);
        const v = unpackInts(s.versions);
        return { turn: i + 1, observation: seen.observation, hint: seen.hint, action: s.text, reward: e.rewards[i] ?? 0, versions: v.length ? [v[0]!, v[v.length - 1]!] : null, tokens: s.tokens.byteLength / 4 };
      }),
    };
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled(this.follows.map((f) => f.close()));
    await Promise.allSettled(this.loops);
  }
}
