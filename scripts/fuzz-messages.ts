// `npm run fuzz:messages -- [--count N] [--seed S] [--iterations I]`: a whole run (`spade start --role all`, tiny
// model) on a real nats-server while hostile messages (runtime/message-fuzz.ts) go to every subject an actor consumes,
// before the host starts and while it runs: the work queues and event subjects the designer, agent, evaluator and
// learner pull (each must land in its dead-letter subject with the code its kind calls for), the coordinator's
// followed subjects, and the sandbox's request subjects (each must get an error reply). The run must still finish.
// Ends with one JSON line. The suite runs a short variant (test/loop/hostile-messages-leave-the-run-serving.test.ts).
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
import { hostileMessages, type FuzzCase, type Rng } from '../runtime/message-fuzz.js';
import { DeadLetter } from '../runtime/message-types.js';
import { decode, type MessageType } from '../runtime/messages.js';
import { DEFAULT_MAX_PAYLOAD_BYTES, startNatsServer } from '../runtime/nats-server.js';
import { repoPath } from '../runtime/paths.js';
import { STREAMS, SUBJECTS } from '../runtime/subjects.js';
import { ensureTopology } from '../runtime/topology.js';
import { mulberry32 } from '../test/helpers/random.js';
import { setArgs, TINY_RUN } from '../test/helpers/tiny-run.js';

/** A subject an actor pulls from: each hostile message must come back as a dead letter of `role`. */
const PULLED: Array<{ subject: string; stream: string; type: MessageType<unknown>; role: string }> = [
  { subject: SUBJECTS.jobDesign, stream: STREAMS.jobsDesign, type: DesignJob as MessageType<unknown>, role: 'designer' },
  { subject: SUBJECTS.jobRollout, stream: STREAMS.jobsRollout, type: RolloutJob as MessageType<unknown>, role: 'agent' },
  { subject: SUBJECTS.trajRaw, stream: STREAMS.trajectories, type: TrajectoryGroup as MessageType<unknown>, role: 'evaluator' },
  { subject: SUBJECTS.envRejected, stream: STREAMS.envs, type: EnvRejected as MessageType<unknown>, role: 'evaluator' },
  { subject: SUBJECTS.trajLabeled, stream: STREAMS.trajectories, type: LabeledBatch as MessageType<unknown>, role: 'learner' },
];

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
  const server = await startNatsServer({ storeDir: join(dir, 'nats') });
  const sets = [...TINY_RUN, `nats.servers=${server.url}`];
  let conn: Connection | undefined;
  try {
    const config = await loadConfig({ env: {}, set: sets });
    conn = await openConnection(config.nats, 'spade-fuzz');
    await ensureTopology(conn, config);
    const c = conn;
    const sent = new Map<string, { kind: string; subject: string; expect: readonly string[] }>();
    let followed = 0;
    const publishRound = async (n: number, withNearMax: boolean): Promise<void> => {
      for (const p of PULLED) {
        const cases = hostileMessages(p.type, n, rng, LOOP_MESSAGES);
        if (withNearMax) cases.push(nearMaxPayload(rng));
        for (const fc of cases) {
          const ack = await c.js.publish(p.subject, fc.bytes);
          sent.set(`${ack.stream}:${ack.seq}`, { kind: fc.kind, subject: p.subject, expect: fc.expect });
        }
      }
      for (const [subject, type] of [[SUBJECTS.envAccepted, EnvAccepted], [SUBJECTS.metrics('fuzz'), EnvAccepted]] as const)
        for (const fc of hostileMessages(type as MessageType<unknown>, n, rng, LOOP_MESSAGES)) {
          await c.js.publish(subject, fc.bytes);
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
          const reply = decode(SandboxReply, (await c.nc.request(subject, fc.bytes, { timeout: 10_000 })).data);
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
    const info = await c.jsm.streams.info(STREAMS.deadLetters);
    if (info.state.messages > 0) {
      const oc = await c.js.consumers.get(STREAMS.deadLetters, { deliver_policy: DeliverPolicy.All });
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
      sandboxRequests, sandboxErrorReplies, hostExit, iterationsDone, completed: hostExit === 0 && iterationsDone === opts.iterations,
      seconds: Math.round((Date.now() - t0) / 1000),
    };
  } finally {
    await conn?.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' }, iterations: { type: 'string', default: '6' } } });
  const report = await runMessageFuzz({ count: Number(values.count), seed: Number(values.seed), iterations: Number(values.iterations) });
  const { missing, wrongCode, ...figures } = report;
  for (const m of missing) process.stderr.write(`missing: ${m}\n`);
  for (const w of wrongCode) process.stderr.write(`wrong code: ${w}\n`);
  process.stdout.write(`${JSON.stringify({ ...figures, missing: missing.length, wrongCode: wrongCode.length })}\n`);
  process.exitCode = missing.length || wrongCode.length || !report.completed || report.sandboxErrorReplies !== report.sandboxRequests ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
