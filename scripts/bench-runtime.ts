// `npm run bench:runtime`: 1 KB messages published and consumed with ack through the actor host
// versus the raw @nats-io client doing the same, side by side in one run against one nats-server;
// plus the p50/p99 round trip of one task through a work queue. Ends with one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, RetentionPolicy, StorageType, type JsMsg } from '@nats-io/jetstream';
import { createEchoActor } from '../actors/echo/echo-actor.js';
import { loadConfig } from '../runtime/config.js';
import { openConnection, type Connection } from '../runtime/connection.js';
import { ActorHost } from '../runtime/host.js';
import { EchoJob, EchoResult } from '../runtime/message-types.js';
import { decode, encode } from '../runtime/messages.js';
import { startNatsServer } from '../runtime/nats-server.js';
import { Semaphore } from '../runtime/semaphore.js';
import { STREAMS, SUBJECTS } from '../runtime/subjects.js';
import { ensureTopology } from '../runtime/topology.js';

const N = Number(process.env.BENCH_N ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 64;
const WINDOW = 256;
const PAYLOAD = new Uint8Array(1024).map((_, i) => (i * 31) & 0xff);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** Publishes `count` messages keeping at most WINDOW unacknowledged publishes in flight. */
async function publishPipelined(count: number, publish: (i: number) => Promise<unknown>): Promise<void> {
  const slots = new Semaphore(WINDOW);
  for (let i = 0; i < count; i++) {
    await slots.acquire();
    void publish(i).finally(() => slots.release());
  }
  await slots.idle();
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}

/** The baseline: the same work written directly against @nats-io/jetstream. */
async function rawRound(conn: Connection, round: number, reply: boolean): Promise<number> {
  const consumer = await conn.js.consumers.get(STREAMS.benchRawJobs, 'bench-raw');
  const msgs = await consumer.consume({ max_messages: CONSUMER_BUFFER });
  let done = 0;
  const slots = new Semaphore(CONCURRENCY);
  const loop = (async () => {
    for await (const m of msgs as AsyncIterable<JsMsg>) {
      await slots.acquire();
      const finish = () => {
        m.ack();
        done++;
        slots.release();
      };
      if (reply) void conn.js.publish(SUBJECTS.benchRawResult, m.data, { msgID: `r${round}:${m.seq}` }).then(finish);
      else finish();
    }
  })();
  const t0 = performance.now();
  await publishPipelined(N, (i) => conn.js.publish(SUBJECTS.benchRawJob, PAYLOAD, { msgID: `raw${round}:${reply}:${i}` }));
  await until(() => done >= N);
  const secs = (performance.now() - t0) / 1000;
  await msgs.close();
  await loop;
  return N / secs;
}

const CONSUMER_BUFFER = CONCURRENCY;

async function hostRound(conn: Connection, host: ActorHost, round: number, reply: boolean): Promise<number> {
  const start = host.stats.handled;
  const t0 = performance.now();
  await publishPipelined(N, (i) =>
    conn.js.publish(SUBJECTS.jobEcho, encode(EchoJob, { id: `h${round}:${reply}:${i}`, payload: PAYLOAD, reply }), { msgID: `host${round}:${reply}:${i}` }),
  );
  await until(() => host.stats.handled - start >= N);
  return N / ((performance.now() - t0) / 1000);
}

async function roundTrips(conn: Connection, samples: number): Promise<number[]> {
  const out: number[] = [];
  const sub = conn.nc.subscribe(SUBJECTS.resultEcho);
  const iter = sub[Symbol.asyncIterator]();
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await conn.js.publish(SUBJECTS.jobEcho, encode(EchoJob, { id: `rt-${i}`, payload: PAYLOAD }), { msgID: `rt-${i}` });
    for (;;) {
      const next = await iter.next();
      if (next.done || decode(EchoResult, next.value.data).id === `rt-${i}`) break;
    }
    out.push(performance.now() - t0);
  }
  sub.unsubscribe();
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-bench-'));
  const server = await startNatsServer({ storeDir: join(dir, 'nats') });
  const config = await loadConfig({ env: {}, set: [`nats.servers=${server.url}`, `roles.echo.concurrency=${CONCURRENCY}`, 'delivery.maxAckPending=10000'] });
  const conn = await openConnection(config.nats, 'bench');
  await ensureTopology(conn, config);
  for (const [name, subject] of [[STREAMS.benchRawJobs, SUBJECTS.benchRawJob], [STREAMS.benchRawResults, SUBJECTS.benchRawResult]] as const)
    await conn.jsm.streams.add({ name, subjects: [subject], storage: StorageType.File, retention: name === STREAMS.benchRawJobs ? RetentionPolicy.Workqueue : RetentionPolicy.Limits });
  await conn.jsm.consumers.add(STREAMS.benchRawJobs, { durable_name: 'bench-raw', ack_policy: AckPolicy.Explicit, max_ack_pending: 10_000, ack_wait: 30e9 });
  const hostConn = await openConnection(config.nats, 'bench-host');
  const host = new ActorHost({ conn: hostConn, config, hostId: 'bench', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);

  const figures: Record<string, number[]> = { rawAck: [], hostAck: [], rawReply: [], hostReply: [] };
  process.stderr.write(`bench:runtime — ${N} × 1 KB messages per round, ${ROUNDS} rounds, concurrency ${CONCURRENCY}, publish window ${WINDOW}\n`);
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate the order each round so drift on a noisy machine hits both sides alike.
    const order = r % 2 === 0 ? ['raw', 'host'] : ['host', 'raw'];
    for (const side of order)
      for (const reply of [false, true]) {
        const rate = side === 'raw' ? await rawRound(conn, r, reply) : await hostRound(conn, host, r, reply);
        figures[`${side}${reply ? 'Reply' : 'Ack'}`]!.push(rate);
        process.stderr.write(`  round ${r + 1} ${side.padEnd(4)} ${reply ? 'consume+publish result+ack' : 'consume+ack             '} ${rate.toFixed(0).padStart(7)} msgs/s\n`);
      }
  }
  const rt = await roundTrips(conn, Number(process.env.BENCH_RT_SAMPLES ?? 300));
  await host.stop();
  await hostConn.close();
  await conn.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });

  const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)])) as Record<string, number>;
  const result = {
    bench: 'runtime',
    messages: N,
    rounds: ROUNDS,
    payloadBytes: PAYLOAD.length,
    rawAckMsgsPerSec: Math.round(m.rawAck!),
    hostAckMsgsPerSec: Math.round(m.hostAck!),
    ackRatio: Number((m.hostAck! / m.rawAck!).toFixed(3)),
    rawReplyMsgsPerSec: Math.round(m.rawReply!),
    hostReplyMsgsPerSec: Math.round(m.hostReply!),
    replyRatio: Number((m.hostReply! / m.rawReply!).toFixed(3)),
    roundTripP50Ms: Number(pct(rt, 0.5).toFixed(3)),
    roundTripP99Ms: Number(pct(rt, 0.99).toFixed(3)),
  };
  process.stdout.write(
    [
      `publish + consume + ack (medians of ${ROUNDS}):  raw ${result.rawAckMsgsPerSec} msgs/s   host ${result.hostAckMsgsPerSec} msgs/s   ratio ${result.ackRatio} (target >= 0.85)`,
      `… + durable result publish:               raw ${result.rawReplyMsgsPerSec} msgs/s   host ${result.hostReplyMsgsPerSec} msgs/s   ratio ${result.replyRatio}`,
      `one task through the work queue (round trip, ${rt.length} samples): p50 ${result.roundTripP50Ms} ms   p99 ${result.roundTripP99Ms} ms`,
      JSON.stringify(result),
    ].join('\n') + '\n',
  );
}

await main();
