// An undecodable message just under the server's max_payload is still dead-lettered: its record keeps the first
// bytes, the full length and the sha256. Found by the message fuzzer: the record (reason + original) outgrew
// max_payload, could never be written, and the message was nak'ed and redelivered until max_deliver, then stayed
// in its queue with no record.
import t from 'tap';
import { createHash } from 'node:crypto';
import { DeliverPolicy } from '@nats-io/jetstream';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { DeadLetter } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../runtime/nats-server.js';
import { STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';
import { mulberry32 } from '../helpers/random.js';

t.test('a message just under max_payload is dead-lettered with its first bytes, length and sha256', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'in-proc', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());

  const rng = mulberry32(3);
  // 0xc1 is never valid msgpack: the host refuses it at decode.
  const big = Uint8Array.from({ length: DEFAULT_MAX_PAYLOAD_BYTES - 256 }, (_, i) => (i === 0 ? 0xc1 : Math.floor(rng() * 256)));
  const ack = await conn.js.publish(SUBJECTS.jobEcho, big, { msgID: 'near-max' });
  await publishJobs(conn, ['after-it']);
  t.equal((await collectResults(conn, 1))[0]!.id, 'after-it', 'the actor keeps serving');

  const oc = await conn.js.consumers.get(STREAMS.deadLetters, { deliver_policy: DeliverPolicy.All });
  const m = await oc.next({ expires: 10_000 });
  t.ok(m, 'a dead letter was written');
  const l = decode(DeadLetter, m!.data);
  t.equal(l.streamSeq, ack.seq, 'for the big message');
  t.equal(l.code, 'MESSAGE_DECODE');
  t.equal(l.originalBytes, big.length, 'the full length is recorded');
  t.equal(l.originalSha256, createHash('sha256').update(big).digest('hex'), 'the sha256 of all its bytes is recorded');
  t.ok(l.original.length > 0 && l.original.length < big.length, `the record keeps the first ${l.original.length} bytes`);
  t.same(Buffer.from(l.original), Buffer.from(big.subarray(0, l.original.length)), 'which are the first bytes');
  t.ok(m!.data.length <= DEFAULT_MAX_PAYLOAD_BYTES, 'the record fits the server');
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  t.equal(info.num_pending + info.num_ack_pending, 0, 'nothing left in the queue');
});
