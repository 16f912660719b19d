// With no NATS URL, start.js runs an embedded nats-server under the run directory, writes its URL for tail/status,
// and stops it and removes the URL file on exit.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

t.test('embedded server lifecycle', async (t) => {
  const runDir = tempDir(t);
  const host = spawnHost(t, ['--run-dir', runDir, '--role', 'echo'], { SPADE_NATS_URL: '' });
  const m = await host.waitFor(/embedded nats-server listening on nats:\/\/127\.0\.0\.1:(\d+)/);
  await host.waitFor(/running roles \[echo\]/);
  const port = Number(m[1]);
  t.ok(existsSync(join(runDir, 'nats', 'jetstream')), 'JetStream store is under the run directory');
  t.equal(readFileSync(join(runDir, 'nats.url'), 'utf8').trim(), `nats://127.0.0.1:${port}`, 'URL written for tail/status');
  t.ok(await portOpen(port), 'server accepts connections');
  host.child.kill('SIGINT');
  t.equal((await host.exited).code, 0, 'exit 0 on SIGINT');
  t.notOk(await portOpen(port), 'embedded server stopped with the host');
  t.notOk(existsSync(join(runDir, 'nats.url')), 'URL file removed');
});
