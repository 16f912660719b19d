// An actor's declared subscriptions (stored subjects from the start, a KV key with its current value, a core
// subject) deliver to it from after start() until the host drains, and nothing after.
import t from 'tap';
import { EventEmitter, once } from 'node:events';
import type { Actor } from '../../runtime/actor.js';
import { ActorHost } from '../../runtime/host.js';
import { BUCKETS, STREAMS, SUBJECTS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';

t.test('stream, KV and core subscriptions', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const seen: string[] = [];
  const events = new EventEmitter();
  const got = (what: string): void => void (seen.push(what), events.emit('seen'));
  const kv = await conn.kvm.open(BUCKETS.run);
  await kv.put('k', new TextEncoder().encode('before'));
  await conn.js.publish(SUBJECTS.resultEcho, new TextEncoder().encode('stored'));
  const actor: Actor = {
    role: 'echo',
    subscriptions: [
      { kind: 'stream', stream: STREAMS.results, filter: SUBJECTS.resultEcho, from: 'all', onMessage: (m) => got(`stream:${new TextDecoder().decode(m.data)}`) },
      { kind: 'kv', bucket: BUCKETS.run, key: 'k', onEntry: (e) => got(`kv:${new TextDecoder().decode(e.value)}`) },
      { kind: 'core', subject: SUBJECTS.benchRawJob, onMessage: (m) => got(`core:${new TextDecoder().decode(m.data)}`) },
    ],
  };
  const host = new ActorHost({ conn, config, hostId: 'subs', log: () => undefined });
  await host.start([() => actor], ['echo']);
  const until = async (n: number) => {
    while (seen.length < n) await once(events, 'seen');
  };
  await until(2);
  t.same([...seen].sort(), ['kv:before', 'stream:stored'], 'what was there before start: the stored message and the current value');
  await kv.put('k', new TextEncoder().encode('after'));
  conn.nc.publish(SUBJECTS.benchRawJob, new TextEncoder().encode('live'));
  await conn.js.publish(SUBJECTS.resultEcho, new TextEncoder().encode('new'));
  await until(5);
  t.same(seen.slice(2).sort(), ['core:live', 'kv:after', 'stream:new']);
  await host.stop();
  const before = seen.length;
  await kv.put('k', new TextEncoder().encode('late'));
  conn.nc.publish(SUBJECTS.benchRawJob, new TextEncoder().encode('late'));
  await conn.js.publish(SUBJECTS.resultEcho, new TextEncoder().encode('late'));
  await conn.nc.flush();
  t.equal(seen.length, before, 'nothing delivered after the drain');
});
