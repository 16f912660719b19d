// An actor may ask its host to stop before the host has finished starting (a coordinator whose run other hosts
// finished while this one was still loading models): the request is kept and handed to the handler the caller
// registers afterwards, so the process stops instead of running forever.
import t from 'tap';
import type { RoleRegistry } from '../../runtime/roles.js';
import { startHost } from '../../runtime/start-host.js';
import { ROLE_FACTORIES } from '../../app/roles.js';
import { natsServer, tempDir } from '../helpers/nats.js';

t.test('a shutdown requested during start reaches the handler registered after it', async (t) => {
  const server = await natsServer(t);
  // The echo role, standing in for a coordinator that is done as soon as it starts.
  const roles: RoleRegistry = { ...ROLE_FACTORIES, echo: () => ({ role: 'echo', start: async (env) => env.requestShutdown('nothing left to do') }) };
  const started = await startHost(['--nats', server.url, '--role', 'echo', '--run-dir', tempDir(t, 'spade-run-')], roles);
  t.ok(started, 'the host started');
  t.teardown(() => started!.shutdown());
  const reason = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the request made during start was lost')), 2_000);
    started!.onShutdownRequest((r) => (clearTimeout(timer), resolve(r)));
  });
  t.match(reason, /echo: nothing left to do/);
});
