// The coordinator: drives one run. Issues design jobs iteration by iteration under the staleness bound,
// folds the run's events into stats, renders the live view, and writes the run directory
// (metrics.jsonl, the environment archive). One per cluster; it resumes from the streams and KV.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { Subscription } from '@nats-io/transport-node';
import type { Actor, ActorEnv } from '../../runtime/actor.js';
import { Metric, PolicyVersion } from '../../runtime/message-types.js';
import { decode, decodeAny, encode } from '../../runtime/messages.js';
import { BUCKETS, POLICY_KEYS, STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { DesignJob, EnvAccepted, EnvRejected, LabeledBatch } from '../messages.js';
import { emptyStats, onAccepted, onLabeled, onMetric, onRejected, summary, type RunStats } from './run-stats.js';
import { renderView, ViewWriter } from './run-view.js';
import { issuable, jobIds, jobSeed, minVersionFor } from './schedule.js';

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
}

export const COORDINATOR_KEYS = { nextIteration: 'next_iteration', runId: 'run_id', baseVersion: 'base_version' } as const;

export function createCoordinatorActor(opts: CoordinatorOptions): Actor & { stats(): RunStats } {
  const stats = emptyStats(Date.now());
  const iterations = opts.iterations > 0 ? opts.iterations : Infinity;
  const minutes = opts.minutes > 0 ? opts.minutes : Infinity;
  const readers: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];
  const subs: Subscription[] = [];
  const timers: NodeJS.Timeout[] = [];
  const archived = new Set<string>();
  let env!: ActorEnv;
  let runKv!: KV;
  let runId = '';
  let nextIteration = 0;
  let baseVersion = 0;
  let issuing = Promise.resolve();
  let finished = false;
  let view: ViewWriter;
  const envDir = join(opts.runDir, 'envs');

  function log(line: string) {
    env.log(line);
  }

  async function putNumber(key: string, value: number) {
    await runKv.put(key, new TextEncoder().encode(String(value)));
  }

  async function getNumber(key: string): Promise<number | undefined> {
    const e = await runKv.get(key);
    return e && e.operation === 'PUT' ? Number(new TextDecoder().decode(e.value)) : undefined;
  }

  /** Publishes every iteration the schedule allows now; serialised so iterations go out in order. */
  function issue(): void {
    issuing = issuing.then(async () => {
      if (finished) return;
      for (const i of issuable({ nextIteration, policyVersion: stats.policyVersion, baseVersion }, { designsPerIteration: opts.designsPerIteration, maxStaleness: opts.maxStaleness, iterations })) {
        const ids = jobIds(runId, i, opts.designsPerIteration);
        await Promise.all(
          ids.map((jobId, j) =>
            env.conn.js.publish(
              SUBJECTS.jobDesign,
              encode(DesignJob, { jobId, iteration: i, seed: jobSeed(opts.seed, i, j), minPolicyVersion: minVersionFor(i, baseVersion, opts.maxStaleness) }),
              { msgID: `design:${jobId}` },
            ),
          ),
        );
        nextIteration = i + 1;
        stats.iterationsIssued = nextIteration;
        await putNumber(COORDINATOR_KEYS.nextIteration, nextIteration);
      }
    }).catch((err: Error) => log(`cannot issue design jobs: ${err.message} (will retry on the next event)`));
  }

  function archive(kind: 'accepted' | 'rejected' | 'evaluated', record: Record<string, unknown>, code?: string) {
    const key = `${kind}:${record.envId}`;
    if (archived.has(key)) return;
    archived.add(key);
    if (code !== undefined) writeFileSync(join(envDir, `${record.envId}.js`), code);
    appendFileSync(join(envDir, `${kind}.jsonl`), `${JSON.stringify(record)}\n`);
  }

  function finish(reason: string) {
    if (finished) return;
    finished = true;
    writeMetrics('final');
    view.write(renderView(stats, Date.now(), { iterations, minutes }));
    env.requestShutdown(reason);
  }

  function writeMetrics(event: string) {
    appendFileSync(join(opts.runDir, 'metrics.jsonl'), `${JSON.stringify({ event, ...summary(stats, Date.now()) })}\n`);
  }

  async function follow(stream: string, filter: string, onMsg: (m: JsMsg) => void) {
    const ci = await env.conn.jsm.consumers.add(stream, { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: filter, inactive_threshold: 60e9, mem_storage: true });
    const msgs = await env.conn.js.consumers.getConsumerFromInfo(ci).consume({ max_messages: 256 });
    readers.push(msgs);
    loops.push(
      (async () => {
        for await (const m of msgs as AsyncIterable<JsMsg>) {
          m.ack();
          try {
            onMsg(m);
          } catch (err) {
            log(`skipping ${m.subject}#${m.seq}: ${(err as Error).message}`);
          }
        }
      })(),
    );
  }

  function restoreArchiveIndex() {
    for (const kind of ['accepted', 'rejected', 'evaluated']) {
      const file = join(envDir, `${kind}.jsonl`);
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n'))
        if (line.trim()) archived.add(`${kind}:${(JSON.parse(line) as { envId: string }).envId}`);
    }
  }

  return {
    role: 'coordinator',
    stats: () => stats,
    async start(e) {
      env = e;
      view = new ViewWriter(process.stderr, opts.view);
      mkdirSync(envDir, { recursive: true });
      restoreArchiveIndex();
      runKv = await e.conn.kvm.open(BUCKETS.run);
      const idEntry = await runKv.get(COORDINATOR_KEYS.runId);
      runId = idEntry && idEntry.operation === 'PUT' ? new TextDecoder().decode(idEntry.value) : `run${Date.now().toString(36)}`;
      await runKv.put(COORDINATOR_KEYS.runId, new TextEncoder().encode(runId));
      nextIteration = (await getNumber(COORDINATOR_KEYS.nextIteration)) ?? 0;
      stats.iterationsIssued = nextIteration;

      const policyKv = await e.conn.kvm.open(BUCKETS.policy);
      const pv = await policyKv.get(POLICY_KEYS.version);
      stats.policyVersion = pv && pv.operation === 'PUT' && pv.value.length ? decode(PolicyVersion, pv.value).version : 0;
      // Versions count from where this run's first iteration started, so a resumed cluster keeps its schedule.
      const savedBase = await getNumber(COORDINATOR_KEYS.baseVersion);
      baseVersion = savedBase ?? stats.policyVersion;
      if (savedBase === undefined) await putNumber(COORDINATOR_KEYS.baseVersion, baseVersion);
      const watch = await policyKv.watch({ key: POLICY_KEYS.version });
      loops.push(
        (async () => {
          for await (const entry of watch) {
            if (entry.operation !== 'PUT' || entry.value.length === 0) continue;
            const v = decode(PolicyVersion, entry.value).version;
            if (v > stats.policyVersion) {
              stats.policyVersion = v;
              issue();
            }
          }
        })(),
      );
      readers.push({ close: async () => watch.stop() } as unknown as ConsumerMessages);

      await follow(STREAMS.envs, 'spade.env.>', (m) => {
        if (m.subject === SUBJECTS.envAccepted) {
          const a = decode(EnvAccepted, m.data);
          onAccepted(stats, a.iteration);
          archive('accepted', { envId: a.envId, iteration: a.iteration, name: a.spec.name, family: a.family, codeHash: a.codeHash, doc: a.doc?.id, parents: a.parents, validation: a.validation }, a.code);
        } else if (m.subject === SUBJECTS.envRejected) {
          const r = decode(EnvRejected, m.data);
          onRejected(stats, r.iteration, r.stage);
          archive('rejected', { envId: r.envId, iteration: r.iteration, stage: r.stage, reason: r.reason.slice(0, 500), doc: r.doc?.id });
        }
      });
      await follow(STREAMS.trajectories, SUBJECTS.trajLabeled, (m) => {
        const b = decode(LabeledBatch, m.data);
        const done = onLabeled(stats, { iteration: b.iteration, accepted: b.accepted, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, trajectories: b.trajectories.length }, opts.designsPerIteration);
        if (b.accepted) archive('evaluated', { envId: b.envId, iteration: b.iteration, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, feasible: b.feasible, designerReward: b.designerReward });
        if (done) {
          writeMetrics('iteration');
          if (stats.iterationsDone >= iterations) finish(`${stats.iterationsDone} iterations done`);
        }
      });
      subs.push(
        e.conn.nc.subscribe('spade.metrics.>', {
          callback: (_err, m) => {
            try {
              const d = decodeAny(m.data);
              if (d.type === Metric.type) onMetric(stats, d.body as never);
            } catch {
              // Metrics are best-effort: an undecodable one is not worth a log line per message.
            }
          },
        }),
      );

      timers.push(setInterval(() => view.write(renderView(stats, Date.now(), { iterations, minutes })), opts.viewEveryMs));
      timers.push(setInterval(() => writeMetrics('tick'), 10_000));
      if (Number.isFinite(minutes)) timers.push(setTimeout(() => finish(`${minutes} minutes elapsed`), minutes * 60_000));
      for (const t of timers) t.unref();
      log(`run ${runId}: ${Number.isFinite(iterations) ? iterations : 'unbounded'} iterations × ${opts.designsPerIteration} designs, η = ${opts.maxStaleness}, next iteration ${nextIteration}, policy v${stats.policyVersion}`);
      issue();
    },
    async stop() {
      finished = true;
      for (const t of timers) clearInterval(t);
      for (const s of subs) s.unsubscribe();
      await issuing;
      for (const r of readers) await r.close().catch(() => undefined);
      await Promise.allSettled(loops);
      writeMetrics('stop');
    },
  };
}
