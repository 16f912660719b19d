// With no NATS URL and no nats-server binary, start.js says how to install one and exits non-zero.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';

t.test('missing nats-server binary', async (t) => {
  const host = spawnHost(t, ['--run-dir', tempDir(t)], { SPADE_NATS_URL: '', NATS_SERVER_BIN: '/nonexistent/nats-server' });
  t.equal((await host.exited).code, 1);
  t.match(host.output(), /nats-server not found at \/nonexistent\/nats-server: install it with `sudo apt-get install -y nats-server`/);
});
