// node runtime/start.js with a bad config value exits 1 naming the field; an unknown flag exits 2.
import t from 'tap';
import { spawnHost } from '../helpers/host-process.js';

t.test('node runtime/start.js exits non-zero with the field in its message', async (t) => {
  const host = spawnHost(t, ['--set', 'roles.echo.concurrency=0'], { SPADE_NATS_URL: 'nats://127.0.0.1:1' });
  const exit = await host.exited;
  t.equal(exit.code, 1);
  t.match(host.output(), /OptionsError: config\.roles\.echo\.concurrency: expected an integer >= 1 and <= 4096, got 0/);
  const usage = spawnHost(t, ['--no-such-flag']);
  t.equal((await usage.exited).code, 2, 'unknown flag is a usage error');
});
