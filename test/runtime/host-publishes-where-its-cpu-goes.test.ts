// A host publishes its profile: every host.profileEveryMs and once more as it stops, profile.process (the process's
// CPU) and a profile.phase.<name> per registered source, cumulative; its heartbeat carries the CPU seconds by phase
// and `spade status` prints their shares. A real nats-server and host; the phase source stands in for a sampler.
import t from 'tap';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ActorHost } from '../../runtime/host.js';
import { listMembers } from '../../runtime/membership.js';
import { Metric, type MetricBody } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { formatStatus } from '../../runtime/status.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { addPhaseSource } from '../../runtime/work-profile.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

t.test('a host publishes its profile and its heartbeat carries it', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], ['host.profileEveryMs=100', 'host.heartbeatMs=200']);
  const conn = await connected(t, config);
  const seen: MetricBody[] = [];
  const sub = conn.nc.subscribe(SUBJECTS.metrics('echo'), { callback: (_e, m) => void seen.push(decode(Metric, m.data)) });
  t.teardown(() => sub.unsubscribe());
  let calls = 1;
  const remove = addPhaseSource(() => ({ decode: { calls, wallMs: 2_000 * calls, cpuMs: 1_000 * calls, tokens: 8 * calls, flops: 1e6 * calls } }));
  t.teardown(remove);

  const host = new ActorHost({ conn, config, hostId: 'profiled-host', log: () => undefined });
  await host.start([() => createEchoActor()], ['echo']);
  let stopped = false;
  t.teardown(() => (stopped ? undefined : host.stop()));
  await until('two profile readings', () => seen.filter((m) => m.name === 'profile.process').length >= 2);
  const proc = seen.find((m) => m.name === 'profile.process')!;
  t.equal(proc.host, 'profiled-host');
  t.equal(proc.role, 'echo', 'published by the first role of the host, on its own metrics subject');
  t.ok(proc.value > 0 && Number(proc.tags?.wallMs) > 0, `process CPU ${proc.value} ms over ${proc.tags?.wallMs} ms`);
  const phase = seen.find((m) => m.name === 'profile.phase.decode')!;
  t.equal(phase.value, 1_000);
  t.same({ calls: phase.tags?.calls, tokens: phase.tags?.tokens, flops: phase.tags?.flops }, { calls: '1', tokens: '8', flops: '1000000' });

  await until('the heartbeat to carry the profile', async () => (await listMembers(conn)).some((m) => m.hostId === 'profiled-host' && m.cpuSec?.decode === 1));
  const status = formatStatus({ members: await listMembers(conn), streams: [], deadLetters: 0, policyVersion: null } as never);
  t.match(status, /\n    cpu \d+ s: decode \d+% other \d+%/, 'spade status prints the shares');

  calls = 3;
  const before = seen.length;
  await host.stop();
  stopped = true;
  const last = seen.slice(before).filter((m) => m.name === 'profile.phase.decode').pop();
  t.equal(last?.value, 3_000, 'the stop publishes a final reading with the latest totals');
});
