// The coordinator: drives one run. Its logic (coordinator-logic.ts) issues design jobs iteration by iteration under
// the staleness bound and folds the run's events into stats; this actor gives it its inputs (the host's
// subscriptions: the policy version in KV, stored environment and labeled-batch events, live metrics) and performs
// its effects through the runtime's logic driver (runtime/logic-driver.ts), which holds its mailbox and timers and
// publishes the jobs off the mailbox. Effects: publish the jobs, write the run directory (metrics.jsonl, the
// environment archive), draw the live view. One per cluster; it resumes from the streams and KV.
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KV } from '@nats-io/kv';
import type { Actor, ActorEnv } from '../../runtime/actor.js';
import { Metric, PolicyVersion } from '../../runtime/message-types.js';
import { untilAnswered } from '../../runtime/jetstream-retry.js';
import { decode, decodeAny, encode } from '../../runtime/messages.js';
import { runLogic } from '../../runtime/logic-driver.js';
import { BUCKETS, POLICY_KEYS, RUN_KEYS, STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { DesignJob, EnvAccepted, EnvRejected, LabeledBatch } from '../loop/messages.js';
import { transition, type CoordinatorEffect, type CoordinatorEvent, type CoordinatorLimits, type CoordinatorState, type NoveltyScorer } from './coordinator-logic.js';
import { ReplayBuffer, type ReplayOptions } from './replay.js';
import { budgetWords, hasBudget } from './budget.js';
import { emptyStats, type RunStats } from './run-stats.js';
import { spentTokens } from './run-summary.js';
import { ViewWriter } from './run-view.js';

export interface CoordinatorOptions {
  runDir: string;
  seed: number;
  designsPerIteration: number;
  maxStaleness: number;
  /** 0 = unbounded. */
  iterations: number;
  /** 0 = unbounded. */
  minutes: number;
  view: 'tty' | 'lines' | 'off';
  viewEveryMs: number;
  /** Policy tokens (sampled + trained) the run may spend; 0 = unbounded. */
  budgetTokens?: number;
  /** Agent episodes (hinted included) the run may play; 0 = unbounded. */
  budgetEpisodes?: number;
  /** Learning-curve snapshots at budget fractions 1/n .. (n−1)/n, copied to `<runDir>/curve/<j>of<n>/`; 0 = none. */
  curvePoints?: number;
  /** The learner's state directory, whose latest checkpoint a curve snapshot copies (default `<runDir>/learner`). */
  learnerDir?: string;
  /** Scores each accepted environment's novelty (the composition root passes eval's library index). */
  novelty?: () => NoveltyScorer;
  /** Replays of accepted environments (loop.replay); absent or rate 0 = every job designs. */
  replay?: ReplayOptions;
}

/** Where a learning-curve snapshot goes: `<runDir>/curve/<point>of<of>`. */
export const curveDir = (runDir: string, point: number, of: number): string => join(runDir, 'curve', `${point}of${of}`);


type Event = CoordinatorEvent extends infer E ? (E extends unknown ? Omit<E, 'now'> : never) : never;

export function createCoordinatorActor(opts: CoordinatorOptions): Actor & { stats(): RunStats } {
  const limits: CoordinatorLimits = {
    seed: opts.seed, designsPerIteration: opts.designsPerIteration, maxStaleness: opts.maxStaleness,
    iterations: opts.iterations > 0 ? opts.iterations : Infinity, minutes: opts.minutes > 0 ? opts.minutes : Infinity,
    budgetTokens: opts.budgetTokens ? opts.budgetTokens : Infinity, budgetEpisodes: opts.budgetEpisodes ? opts.budgetEpisodes : Infinity, curvePoints: opts.curvePoints ?? 0,
  };
  const state: CoordinatorState = {
    stats: emptyStats(Date.now()), runId: '', nextIteration: 0, baseVersion: 0, issuing: false, finished: false, archived: new Set(),
    ...(opts.novelty ? { novelty: opts.novelty() } : {}),
    ...(opts.replay && opts.replay.rate > 0 ? { replay: new ReplayBuffer(opts.replay) } : {}),
  };
  const learnerDir = opts.learnerDir ?? join(opts.runDir, 'learner');
  const envDir = join(opts.runDir, 'envs');
  let env!: ActorEnv;
  let runKv!: KV;
  let view!: ViewWriter;

  const putNumber = async (key: string, value: number) => void (await runKv.put(key, new TextEncoder().encode(String(value))));
  async function getNumber(key: string): Promise<number | undefined> {
    const e = await runKv.get(key);
    return e && e.operation === 'PUT' ? Number(new TextDecoder().decode(e.value)) : undefined;
  }

  // The mailbox, the timers and the publishing off the mailbox are the driver's; the logic issues one batch at a time.
  const driver = runLogic<Event, CoordinatorEffect>({
    transition: (e) => transition(state, { ...e, now: Date.now() } as CoordinatorEvent, limits).effects,
    perform,
    unref: true,
    onError: (err) => env.log(`coordinator: ${err.message}`),
  });
  const dispatch = (e: Event): Promise<void> => driver.send(e);

  function perform(f: CoordinatorEffect): void {
    switch (f.type) {
      case 'issue': return driver.later(() => publishJobs(f.iterations));
      case 'archive':
        if (f.code !== undefined) writeFileSync(join(envDir, `${f.record.envId}.js`), f.code);
        return appendFileSync(join(envDir, `${f.kind}.jsonl`), `${JSON.stringify(f.record)}\n`);
      case 'metrics': return appendFileSync(join(opts.runDir, 'metrics.jsonl'), `${JSON.stringify(f.line)}\n`);
      case 'view': return view.write(f.text);
      case 'log': return env.log(f.line);
      case 'snapshot': return snapshot(f);
      case 'shutdown': return env.requestShutdown(f.reason);
    }
  }

  /**
   * A curve point is due: copy the first learner checkpoint taken at or after the update that crossed its budget
   * fraction (its model/ directory: what `spade eval` loads) to the point's directory. Checkpoints come every
   * `checkpointEvery` updates, so the point waits for the next one; one never taken (the run ended first) is dropped,
   * the final checkpoint standing for it.
   */
  const pendingSnapshots: Array<Extract<CoordinatorEffect, { type: 'snapshot' }> & { afterUpdate: number }> = [];
  function snapshot(f: Extract<CoordinatorEffect, { type: 'snapshot' }>): void {
    pendingSnapshots.push({ ...f, afterUpdate: state.stats.tokens.trainedUpdates });
    takeSnapshots();
  }
  function takeSnapshots(): void {
    if (pendingSnapshots.length === 0) return;
    let latest: string;
    try {
      latest = readFileSync(join(learnerDir, 'LATEST'), 'utf8').trim();
    } catch {
      return; // no checkpoint yet
    }
    const update = Number(/(\d+)$/.exec(latest)?.[1] ?? -1);
    while (pendingSnapshots.length > 0 && update >= pendingSnapshots[0]!.afterUpdate) {
      const f = pendingSnapshots.shift()!;
      const dest = curveDir(opts.runDir, f.point, f.of);
      if (existsSync(dest)) continue; // taken before a resume
      try {
        const tmp = `${dest}.tmp`;
        rmSync(tmp, { recursive: true, force: true });
        mkdirSync(join(opts.runDir, 'curve'), { recursive: true });
        cpSync(join(learnerDir, latest, 'model'), tmp, { recursive: true });
        renameSync(tmp, dest);
        appendFileSync(join(opts.runDir, 'metrics.jsonl'), `${JSON.stringify({ event: 'curve', ts: Date.now(), point: f.point, of: f.of, fraction: f.point / f.of, tokens: spentTokens(state.stats), checkpoint: latest, update })}\n`);
      } catch (err) {
        // The learner may have replaced the checkpoint mid-copy; the curve loses a point, the run goes on.
        env.log(`learning-curve snapshot ${f.point}/${f.of} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Publishes the jobs in order, saving next_iteration after each iteration; says how far it got. */
  async function publishJobs(iterations: Extract<CoordinatorEffect, { type: 'issue' }>['iterations']): Promise<Event> {
    let next = state.nextIteration;
    try {
      for (const { iteration, jobs } of iterations) {
        await Promise.all(jobs.map((job) => env.conn.js.publish(SUBJECTS.jobDesign, encode(DesignJob, job), { msgID: `design:${job.jobId}` })));
        next = iteration + 1;
        await putNumber(RUN_KEYS.nextIteration, next);
      }
      return { type: 'issued', next };
    } catch (err) {
      return { type: 'issued', next, error: (err as Error).message };
    }
  }

  function restoreArchiveIndex() {
    for (const kind of ['accepted', 'rejected', 'evaluated', 'replayed']) {
      const file = join(envDir, `${kind}.jsonl`);
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n'))
        if (line.trim()) state.archived.add(`${kind}:${(JSON.parse(line) as { envId: string }).envId}`);
    }
  }

  /** The run's id, next iteration, policy version and base version from KV (written the first time). */
  async function restoreRunState(e: ActorEnv): Promise<void> {
    runKv = await e.conn.kvm.open(BUCKETS.run);
    const idEntry = await runKv.get(RUN_KEYS.runId);
    state.runId = idEntry && idEntry.operation === 'PUT' ? new TextDecoder().decode(idEntry.value) : (state.runId || `run${Date.now().toString(36)}`);
    await runKv.put(RUN_KEYS.runId, new TextEncoder().encode(state.runId));
    state.nextIteration = (await getNumber(RUN_KEYS.nextIteration)) ?? 0;
    state.stats.iterationsIssued = state.nextIteration;

    const pv = await (await e.conn.kvm.open(BUCKETS.policy)).get(POLICY_KEYS.version);
    state.stats.policyVersion = pv && pv.operation === 'PUT' && pv.value.length ? decode(PolicyVersion, pv.value).version : 0;
    // Versions count from where this run's first iteration started, so a resumed cluster keeps its schedule.
    const savedBase = await getNumber(RUN_KEYS.baseVersion);
    state.baseVersion = savedBase ?? state.stats.policyVersion;
    if (savedBase === undefined) await putNumber(RUN_KEYS.baseVersion, state.baseVersion);
  }

  return {
    role: 'coordinator',
    stats: () => state.stats,
    subscriptions: [
      {
        kind: 'kv', bucket: BUCKETS.policy, key: POLICY_KEYS.version,
        onEntry: (e) => {
          if (e.operation === 'PUT' && e.value.length > 0) return dispatch({ type: 'policyVersion', version: decode(PolicyVersion, e.value).version });
        },
      },
      {
        kind: 'stream', stream: STREAMS.envs, filter: SUBJECT_WILDCARDS.env, from: 'all',
        onMessage: (m) => {
          if (m.subject === SUBJECTS.envAccepted) return dispatch({ type: 'accepted', body: decode(EnvAccepted, m.data) });
          if (m.subject === SUBJECTS.envRejected) return dispatch({ type: 'rejected', body: decode(EnvRejected, m.data) });
        },
      },
      { kind: 'stream', stream: STREAMS.trajectories, filter: SUBJECTS.trajLabeled, from: 'all', onMessage: (m) => dispatch({ type: 'labeled', body: decode(LabeledBatch, m.data) }) },
      {
        // From the start of the stream, like the events above: a resumed coordinator counts the tokens again.
        kind: 'stream', stream: STREAMS.metrics, filter: SUBJECT_WILDCARDS.metrics, from: 'all',
        onMessage: (m) => {
          // Metrics are best-effort: an undecodable one is not worth a log line per message.
          let d;
          try {
            d = decodeAny(m.data);
          } catch {
            return;
          }
          const handled = d.type === Metric.type ? dispatch({ type: 'metric', body: d.body as never }) : undefined;
          takeSnapshots();
          return handled;
        },
      },
    ],
    async start(e) {
      env = e;
      view = new ViewWriter(process.stderr, opts.view);
      mkdirSync(envDir, { recursive: true });
      restoreArchiveIndex();
      if (existsSync(join(opts.runDir, 'curve')))
        for (const d of readdirSync(join(opts.runDir, 'curve'))) {
          const m = /^(\d+)of\d+$/.exec(d);
          if (m) (state.curveTaken ??= new Set()).add(Number(m[1]));
        }
      // Every step is idempotent, so a start just after a cluster server was lost reads it again once JetStream answers.
      await untilAnswered('reading the run state', () => restoreRunState(e), e.log);

      driver.every(opts.viewEveryMs, { type: 'viewTick' });
      driver.every(10_000, { type: 'metricsTick' });
      if (Number.isFinite(limits.minutes)) driver.after(limits.minutes * 60_000, { type: 'timeUp' });
      const its = Number.isFinite(limits.iterations) ? limits.iterations : 'unbounded';
      const budget = hasBudget(limits) ? `, budget ${budgetWords(limits)}` : '';
      e.log(`run ${state.runId}: ${its} iterations × ${opts.designsPerIteration} designs, η = ${opts.maxStaleness}${budget}, next iteration ${state.nextIteration}, policy v${state.stats.policyVersion}`);
      await dispatch({ type: 'issued', next: state.nextIteration }); // issue what the schedule allows now
    },
    async stop() {
      // Nothing more is issued; the stop line is written once the jobs in flight are out.
      await driver.stop({ type: 'stop' });
    },
  };
}
