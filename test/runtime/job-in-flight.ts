// Shared by the SIGTERM drain tests: a real nats-server and a spawned echo host (`spade --role echo`) that holds
// one job in flight, acknowledged by nobody yet.
import { STREAMS, durableName } from '../../runtime/subjects.js';
import type { Connection } from '../../runtime/connection.js';
import { spawnHost, type HostProcess } from '../helpers/host-process.js';
import { connected, natsServer, testConfig, FAST_DELIVERY, type Teardown } from '../helpers/nats.js';
import { publishJobs } from '../helpers/results.js';

export async function hostWithJobInFlight(t: Teardown, id: string, workMs: number, set: string[] = []): Promise<{ conn: Connection; host: HostProcess }> {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const host = spawnHost(t, ['--nats', server.url, '--role', 'echo', ...[...FAST_DELIVERY, ...set].flatMap((s) => ['--set', s])]);
  await host.waitFor(/running roles/);
  await publishJobs(conn, [id], { workMs });
  for (;;) {
    const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, durableName('echo'));
    if (info.num_ack_pending === 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { conn, host };
}
