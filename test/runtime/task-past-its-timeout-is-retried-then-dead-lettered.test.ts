// Work past the role's task timeout is aborted, retried, and finally dead-lettered.
import t from 'tap';
import { echoHost } from './echo-host.js';
import { publishJobs } from '../helpers/results.js';

t.test('a task past taskTimeoutMs is aborted and retried, then dead-lettered', async (t) => {
  const { conn, host } = await echoHost(t, ['roles.echo.taskTimeoutMs=300'], 'timeout');
  await publishJobs(conn, ['stuck'], { workMs: 60_000 });
  while (host.stats.deadLettered < 1) await new Promise((r) => setTimeout(r, 50));
  t.equal(host.stats.failed, 3, 'three attempts, each aborted by the timeout');
  t.equal(host.stats.handled, 0);
});
