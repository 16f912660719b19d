// Garbage bytes, unknown types, newer schema versions and schema violations on a work subject land in
// the dead-letter subject with the reason and the original bytes; the actor keeps serving.
import t from 'tap';
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { pack } from '../../runtime/codec.js';
import { ActorHost } from '../../runtime/host.js';
import { DeadLetter } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';
import { collectResults, publishJobs } from '../helpers/results.js';

t.test('bad messages are dead-lettered and the actor keeps running', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId: 'in-proc', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());

  const bad: Array<[string, Uint8Array, RegExp]> = [
    ['garbage', new TextEncoder().encode('\xc1not msgpack at all'), /MESSAGE_DECODE/],
    ['not an envelope', pack({ hello: 'world' }), /MESSAGE_ENVELOPE/],
    ['unknown type', pack({ t: 'no.such.type', v: 1, b: {} }), /MESSAGE_UNKNOWN_TYPE/],
    ['newer version', pack({ t: 'echo.job', v: 99, b: { id: 'x', payload: new Uint8Array(1) } }), /MESSAGE_VERSION/],
    ['schema violation', pack({ t: 'echo.job', v: 1, b: { id: 42, payload: 'nope' } }), /MESSAGE_SCHEMA/],
  ];
  for (const [name, bytes] of bad) await conn.js.publish(SUBJECTS.jobEcho, bytes, { msgID: `bad:${name}` });
  await publishJobs(conn, ['after-garbage']);

  const results = await collectResults(conn, 1);
  t.equal(results[0]!.id, 'after-garbage', 'a valid job after the garbage is still handled');

  const ci = await conn.jsm.consumers.add(STREAMS.deadLetters, { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, inactive_threshold: 30e9 });
  const msgs = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  const letters = [];
  for await (const m of msgs as AsyncIterable<JsMsg>) {
    m.ack();
    t.equal(m.subject, SUBJECTS.deadLetter('echo'));
    letters.push(decode(DeadLetter, m.data));
    if (letters.length === bad.length) break;
  }
  await msgs.close();
  for (const [i, [name, bytes, code]] of bad.entries()) {
    const l = letters[i]!;
    t.match(l.code, code, `${name}: reason code ${l.code}`);
    t.ok(l.reason.length > 0, `${name}: reason says what was wrong: ${l.reason}`);
    t.same(Buffer.from(l.original), Buffer.from(bytes), `${name}: original bytes kept`);
    t.equal(l.stream, STREAMS.jobsEcho);
  }
  t.equal(host.stats.deadLettered, bad.length);
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, 'spade-echo');
  t.equal(info.num_pending + info.num_ack_pending, 0, 'nothing left stuck in the queue');
});
