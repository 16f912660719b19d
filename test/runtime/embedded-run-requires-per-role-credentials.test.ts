// The embedded default requires credentials: `spade start` writes one per role under <run-dir>/auth (0600, in a 0700
// directory) and connects each role as itself; `spade status` and a second host of the run find them through the run
// directory; a client without them is refused.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openConnection } from '../../runtime/connection.js';
import { isAuthError } from '../../runtime/errors.js';
import { repoPath } from '../../runtime/paths.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir, testConfig } from '../helpers/nats.js';

t.test('an embedded run: per-role users, found by the run\'s hosts and commands', async (t) => {
  const runDir = tempDir(t);
  const host = spawnHost(t, ['--run-dir', runDir, '--role', 'echo', '--host-id', 'first'], { SPADE_NATS_URL: '' });
  const url = (await host.waitFor(/embedded nats-server listening on (nats:\/\/127\.0\.0\.1:\d+)/))[1]!;
  await host.waitFor(/declaring streams, consumers, buckets \(as admin\)/);
  await host.waitFor(/running roles \[echo\]/);

  const auth = join(runDir, 'auth');
  t.equal(statSync(auth).mode & 0o777, 0o700, 'auth/ is 0700');
  const files = readdirSync(auth).sort();
  for (const role of ['admin', 'agent', 'coordinator', 'designer', 'echo', 'evaluator', 'learner', 'reader', 'sandbox']) t.ok(files.includes(`${role}.json`), `${role}.json`);
  for (const f of files) t.equal(statSync(join(auth, f)).mode & 0o777, 0o600, `${f} is 0600`);
  t.equal(statSync(join(runDir, 'nats', 'nats-server.conf')).mode & 0o777, 0o600, 'the server config is 0600');

  const stranger = await openConnection((await testConfig([url])).nats, 'stranger', 5_000).then((c) => c.close().then(() => null), (err: Error) => err);
  t.ok(isAuthError(stranger), `a client without credentials is refused: ${stranger?.message}`);

  // A second host of the run, on the same machine: the run directory gives it the server and the credentials.
  const second = spawnHost(t, ['--nats', url, '--run-dir', runDir, '--role', 'sandbox', '--host-id', 'second', '--set', 'roles.sandbox.threads=1']);
  await second.waitFor(/running roles \[sandbox\]/, 60_000);

  const status = spawnSync(process.execPath, [repoPath('runtime/spade.js'), 'status', '--run-dir', runDir], { cwd: repoPath(), encoding: 'utf8' });
  t.equal(status.status, 0, `spade status connects as reader: ${status.stderr}`);
  t.match(status.stdout, /first/, 'and sees the first host');
  t.match(status.stdout, /second/, 'and the second');

  second.child.kill('SIGTERM');
  host.child.kill('SIGTERM');
  t.equal((await second.exited).code, 0);
  t.equal((await host.exited).code, 0);
  t.notMatch(host.output() + second.output(), /permission denied/, 'no role was refused anything');
});
