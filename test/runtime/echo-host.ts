// Shared by the lease tests: a real nats-server, a connection with the topology, and an in-process host running
// the echo role under the given config overrides, stopped on teardown.
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import type { Connection } from '../../runtime/connection.js';
import { connected, natsServer, testConfig, type Teardown } from '../helpers/nats.js';

export async function echoHost(t: Teardown, set: string[], hostId: string): Promise<{ conn: Connection; host: ActorHost }> {
  const server = await natsServer(t);
  const config = await testConfig([server.url], set);
  const conn = await connected(t, config);
  const host = new ActorHost({ conn, config, hostId, log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  t.teardown(() => host.stop());
  return { conn, host };
}
