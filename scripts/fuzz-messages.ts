// `npm run fuzz:messages -- [--count N] [--seed S] [--iterations I]`: a whole run (`spade start --role all`, tiny
// model) on a real nats-server while hostile messages (runtime/message-fuzz.ts) go to every subject an actor consumes,
// before the host starts and while it runs: the work queues and event subjects the designer, agent, evaluator and
// learner pull (each must land in its dead-letter subject with the code its kind calls for), the coordinator's
// followed subjects, and the sandbox's request subjects (each must get an error reply). The run must still finish.
// Ends with one JSON line. The suite runs a short variant (test/loop/hostile-messages-leave-the-run-serving.test.ts).
// The server requires per-role credentials as an embedded run's does: each hostile message is sent by the role whose
// output that subject is (a buggy or compromised role: what the permission matrix still lets through), and every
// refusal the host logs is counted (`refused`, target 0).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DeliverPolicy } from '@nats-io/jetstream';
import { DesignJob, EnvAccepted, EnvRejected, LabeledBatch, LOOP_MESSAGES, RolloutJob, TrajectoryGroup } from '../actors/loop/index.js';
import { SandboxReply, SandboxRequest } from '../actors/sandbox/sandbox-messages.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection, type Connection } from '../runtime/connection.js';
import { ADMIN, READER, ROLE_ACCESS } from '../runtime/permissions.js';
import { hostileMessages, type FuzzCase, type Rng } from '../runtime/message-fuzz.js';
import { DeadLetter } from '../runtime/message-types.js';
import { decode, type MessageType } from '../runtime/messages.js';
import { DEFAULT_MAX_PAYLOAD_BYTES, startNatsServer } from '../runtime/nats-server.js';
import { repoPath } from '../runtime/paths.js';
import { STREAMS, SUBJECTS } from '../runtime/subjects.js';
import { ensureTopology } from '../runtime/topology.js';
import { mulberry32 } from '../test/helpers/random.js';
import { setArgs, TINY_RUN } from '../test/helpers/tiny-run.js';
import { refusalsIn, soakAuth } from './soak-auth.js';

/** A subject an actor pulls from: each hostile message (sent by the role `by` that publishes it) must come back as a dead letter of `role`. */
const PULLED: Array<{ subject: string; stream: string; type: MessageType<unknown>; role: string; by: string }> = [
  { subject: SUBJECTS.jobDesign, stream: STREAMS.jobsDesign, type: DesignJob as MessageType<unknown>, role: 'designer', by: 'coordinator' },
  { subject: SUBJECTS.jobRollout, stream: STREAMS.jobsRollout, type: RolloutJob as MessageType<unknown>, role: 'agent', by: 'designer' },
  { subject: SUBJECTS.trajRaw, stream: STREAMS.trajectories, type: TrajectoryGroup as MessageType<unknown>, role: 'evaluator', by: 'agent' },
  { subject: SUBJECTS.envRejected, stream: STREAMS.envs, type: EnvRejected as MessageType<unknown>, role: 'evaluator', by: 'designer' },
  { subject: SUBJECTS.trajLabeled, stream: STREAMS.trajectories, type: LabeledBatch as MessageType<unknown>, role: 'learner', by: 'evaluator' },
];
/** Subjects the coordinator follows, and who publishes each; sandbox requests come from the designer. */
const FOLLOWED = [[SUBJECTS.envAccepted, 'designer'], [SUBJECTS.metrics('agent'), 'agent']] as const;
const REQUESTER = 'designer';

export interface MessageFuzzOptions {
  /** Hostile messages per subject (half before the host starts, half while it runs). */
  count: number;
  seed: number;
  iterations: number;
  log?: (line: string) => void;
}

export interface MessageFuzzReport {
  seed: number;
  /** Hostile messages published to pulled subjects. */
  published: number;
  /** Of them, dead-lettered with an expected code. */
  deadLettered: number;
  /** Published and never dead-lettered (must be 0). */
  missing: string[];
  /** Dead-lettered with a code the case did not call for (must be 0). */
  wrongCode: string[];
  /** Hostile messages to the coordinator's followed subjects (environments accepted, metrics). */
  followed: number;
  /** Hostile sandbox requests, and how many got an error reply. */
  sandboxRequests: number;
  sandboxErrorReplies: number;
  /** Operations the server refused the host (permissions violations in its output); 0 is the target. */
  refused: string[];
  /** Host exit code and the iterations the run finished. */
  hostExit: number | null;
  iterationsDone: number;
  completed: boolean;
  seconds: number;
}

/** A message just under the server's max payload: its dead letter (reason + original) is larger than the limit. */
const nearMaxPayload = (rng: Rng): FuzzCase => ({
  kind: 'random bytes just under the max payload',
  bytes: Uint8Array.from({ length: DEFAULT_MAX_PAYLOAD_BYTES - 256 }, (_, i) => (i === 0 ? 0xc1 : Math.floor(rng() * 256))),
  expect: ['MESSAGE_DECODE'],
});

export async function runMessageFuzz(opts: MessageFuzzOptions): Promise<MessageFuzzReport> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const t0 = Date.now();
  const rng = mulberry32(opts.seed);
  const dir = mkdtempSync(join(tmpdir(), 'spade-fuzz-messages-'));
  // Every role of the matrix, the reader and the admin, as `spade start` writes them for an embedded run.
  const auth = soakAuth(dir, Object.keys(ROLE_ACCESS));
  const server = await startNatsServer({ storeDir: join(dir, 'nats'), authorization: auth.authorization });
  const sets = [...TINY_RUN, `nats.servers=${server.url}`, ...auth.sets];
  const conns = new Map<string, Connection>();
  try {
    const config = await loadConfig({ env: {}, set: sets });
    for (const role of new Set([ADMIN, READER, REQUESTER, ...PULLED.map((p) => p.by), ...FOLLOWED.map(([, by]) => by)]))
      conns.set(role, await openConnection(config.nats, `spade-fuzz-${role}`, 10_000, { role }));
    const as = (role: string): Connection => conns.get(role)!;
    await ensureTopology(as(ADMIN), config);
    const sent = new Map<string, { kind: string; subject: string; expect: readonly string[] }>();
    let followed = 0;
    const publishRound = async (n: number, withNearMax: boolean): Promise<void> => {
      for (const p of PULLED) {
        const cases = hostileMessages(p.type, n, rng, LOOP_MESSAGES);
        if (withNearMax) cases.push(nearMaxPayload(rng));
        for (const fc of cases) {
          const ack = await as(p.by).js.publish(p.subject, fc.bytes);
          sent.set(`${ack.stream}:${ack.seq}`, { kind: fc.kind, subject: p.subject, expect: fc.expect });
        }
      }
      for (const [subject, by] of FOLLOWED)
        for (const fc of hostileMessages(EnvAccepted as MessageType<unknown>, n, rng, LOOP_MESSAGES)) {
          await as(by).js.publish(subject, fc.bytes);
          followed++;
        }
    };
    const half = Math.ceil(opts.count / 2);
    await publishRound(half, true);
    log(`fuzz: ${sent.size} hostile messages on ${PULLED.length} pulled subjects before the host starts`);

    const runDir = join(dir, 'run');
    const host = spawn(process.execPath, [repoPath('runtime/start.js'), '--role', 'all', '--run-dir', runDir, '--iterations', String(opts.iterations), ...setArgs(sets)], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SPADE_NATS_URL: '' },
    });
    let out = '';
    const running = new Promise<void>((resolve) => {
      const on = (b: Buffer): void => {
        out += b.toString();
        if (/running roles/.test(out)) resolve();
      };
      host.stdout.on('data', on);
      host.stderr.on('data', on);
    });
    const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
    await Promise.race([running, exited]);

    // While it runs: the rest of the hostile messages, then hostile sandbox requests.
    await publishRound(opts.count - half, false);
    let sandboxRequests = 0;
    let sandboxErrorReplies = 0;
    for (const subject of [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep])
      for (const fc of hostileMessages(SandboxRequest as MessageType<unknown>, opts.count, rng, LOOP_MESSAGES)) {
        sandboxRequests++;
        try {
          const reply = decode(SandboxReply, (await as(REQUESTER).nc.request(subject, fc.bytes, { timeout: 10_000 })).data);
          if (!reply.ok && reply.error?.code && (fc.expect as readonly string[]).includes(reply.error.code)) sandboxErrorReplies++;
          else log(`fuzz: sandbox answered ${fc.kind} with ${JSON.stringify(reply.error ?? reply.ok)}`);
        } catch (err) {
          log(`fuzz: sandbox request ${fc.kind}: ${(err as Error).message}`);
        }
      }
    log(`fuzz: ${sent.size} pulled, ${followed} followed, ${sandboxRequests} sandbox requests published; waiting for the run`);

    const hostExit = await exited;
    if (hostExit !== 0) log(`fuzz: host exited ${hostExit}; output tail:\n${out.slice(-4000)}`);
    const finals = readFileSync(join(runDir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; iterationsDone?: number })
      .filter((m) => m.event === 'final');
    const iterationsDone = finals.at(-1)?.iterationsDone ?? 0;

    // The independent check: every hostile message on a pulled subject has a dead letter naming its stream position.
    const letters = new Map<string, string>();
    const info = await as(READER).jsm.streams.info(STREAMS.deadLetters);
    if (info.state.messages > 0) {
      const oc = await as(READER).js.consumers.get(STREAMS.deadLetters, { deliver_policy: DeliverPolicy.All });
      for (let seen = 0; seen < info.state.messages;) {
        const m = await oc.next({ expires: 5_000 });
        if (!m) break;
        seen++;
        const l = decode(DeadLetter, m.data);
        letters.set(`${l.stream}:${l.streamSeq}`, l.code);
      }
    }
    const missing: string[] = [];
    const wrongCode: string[] = [];
    for (const [at, s] of sent) {
      const code = letters.get(at);
      if (code === undefined) missing.push(`${s.subject} ${at}: ${s.kind}`);
      else if (!s.expect.includes(code)) wrongCode.push(`${s.subject} ${at}: ${s.kind} → ${code}`);
    }
    return {
      seed: opts.seed, published: sent.size, deadLettered: sent.size - missing.length - wrongCode.length, missing, wrongCode, followed,
      sandboxRequests, sandboxErrorReplies, refused: refusalsIn(out), hostExit, iterationsDone, completed: hostExit === 0 && iterationsDone === opts.iterations,
      seconds: Math.round((Date.now() - t0) / 1000),
    };
  } finally {
    for (const c of conns.values()) await c.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' }, iterations: { type: 'string', default: '6' } } });
  const report = await runMessageFuzz({ count: Number(values.count), seed: Number(values.seed), iterations: Number(values.iterations) });
  const { missing, wrongCode, refused, ...figures } = report;
  for (const m of missing) process.stderr.write(`missing: ${m}\n`);
  for (const w of wrongCode) process.stderr.write(`wrong code: ${w}\n`);
  for (const r of refused) process.stderr.write(`refused: ${r}\n`);
  process.stdout.write(`${JSON.stringify({ ...figures, missing: missing.length, wrongCode: wrongCode.length, refused: refused.length })}\n`);
  process.exitCode = missing.length || wrongCode.length || refused.length || !report.completed || report.sandboxErrorReplies !== report.sandboxRequests ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
