// Ctrl-C in a terminal signals the whole foreground process group. The embedded nats-server must not die with it:
// the host drains first (its in-flight work publishes its result over NATS), then stops the server itself.
import t from 'tap';
import { EchoJob } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { openConnection } from '../../runtime/connection.js';
import { authDirOf } from '../../runtime/credentials.js';
import { ADMIN } from '../../runtime/permissions.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir, testConfig } from '../helpers/nats.js';

t.test('SIGINT to the process group: in-flight work still completes', async (t) => {
  const runDir = tempDir(t);
  const host = spawnHost(t, ['--run-dir', runDir, '--role', 'echo', '--set', 'host.drainTimeoutMs=10000'], { SPADE_NATS_URL: '' }, { ownProcessGroup: true });
  const m = await host.waitFor(/embedded nats-server listening on (nats:\/\/127\.0\.0\.1:\d+)/);
  await host.waitFor(/running roles/);
  // The embedded server requires credentials: the test submits the job as the run's admin.
  const config = await testConfig([m[1]!], [`nats.credsDir=${JSON.stringify(authDirOf(runDir))}`]);
  const conn = await openConnection(config.nats, 'submitter', 10_000, { role: ADMIN });
  await conn.js.publish(SUBJECTS.jobEcho, encode(EchoJob, { id: 'in-flight', payload: new Uint8Array(8), workMs: 1_500 }), { msgID: 'job:in-flight' });
  await conn.close();
  await new Promise((r) => setTimeout(r, 300)); // the host has taken the job
  process.kill(-host.pid, 'SIGINT'); // what a terminal's Ctrl-C does
  t.equal((await host.exited).code, 0);
  t.match(host.output(), /stopped cleanly \(handled=1 failed=0/, 'the job finished and its result was published during the drain');
});
