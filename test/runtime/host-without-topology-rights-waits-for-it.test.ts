// A host whose users may not declare the topology (no admin or coordinator credentials) waits, saying so, until a
// host that may has declared it, then runs its roles.
import t from 'tap';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createEchoActor } from '../../actors/echo/echo-actor.js';
import { ADMIN } from '../../runtime/permissions.js';
import { startHost } from '../../runtime/start-host.js';
import { ensureTopology } from '../../runtime/topology.js';
import { authServer, connectAs } from '../helpers/auth.js';
import { FAST_DELIVERY, tempDir } from '../helpers/nats.js';

t.test('an echo host with only its own credentials waits for the topology', async (t) => {
  const { server, credsDir, config } = await authServer(t);
  const own = join(tempDir(t), 'auth');
  mkdirSync(own, { mode: 0o700 });
  copyFileSync(join(credsDir, 'echo.json'), join(own, 'echo.json'));
  const lines: string[] = [];
  const starting = startHost(['--nats', server.url, '--role', 'echo', '--host-id', 'waiter', '--set', `nats.credsDir=${JSON.stringify(own)}`, ...FAST_DELIVERY.flatMap((s) => ['--set', s])], { echo: () => createEchoActor() }, (l) => lines.push(l));
  while (!lines.some((l) => /waiting for stream/.test(l))) await new Promise((res) => setTimeout(res, 50));
  t.match(lines.join('\n'), /waiting for stream SPADE_JOBS_ECHO: this host's roles may not declare the topology/);
  await ensureTopology(await connectAs(t, config, ADMIN), config);
  const started = (await starting)!;
  t.match(lines.join('\n'), /host waiter running roles \[echo\]/);
  t.equal(started.conns.get('echo')!.role, 'echo', 'the role connects as itself');
  await started.shutdown();
});
