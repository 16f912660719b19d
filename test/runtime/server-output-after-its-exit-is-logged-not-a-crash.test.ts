// A server's stderr can deliver output after the server process has exited: on a loaded machine the pipe is read
// late, or a child of the server still holds it. Stopping the server waits for the pipe to close before ending its
// log, so that output lands in the log instead of crashing the process with "write after end" (a loaded full-suite
// run lost a passing test file to it). The stand-in binary below writes its last line from a subshell that outlives
// it, which makes the late output certain rather than a race.
import t from 'tap';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNatsServer } from '../../runtime/nats-server.js';
import { tempDir } from '../helpers/nats.js';

const LATE_WRITER = `#!/bin/sh
echo "[1] Listening for client connections on 127.0.0.1:4999" >&2
echo "[1] Server is ready" >&2
trap '(sleep 0.5; echo "[1] late line after exit" >&2) & exit 0' TERM
while :; do sleep 0.05; done
`;

t.test('server output after its exit is logged, not a crash', async (t) => {
  const dir = tempDir(t);
  const bin = join(dir, 'late-server');
  writeFileSync(bin, LATE_WRITER);
  chmodSync(bin, 0o755);
  const errors: Error[] = [];
  const onError = (err: Error) => void errors.push(err);
  process.on('uncaughtException', onError);
  t.teardown(() => void process.off('uncaughtException', onError));

  const server = await startNatsServer({ bin, storeDir: join(dir, 'store'), logFile: join(dir, 'server.log') });
  t.equal(server.port, 4999, 'started: the port is read from its output');
  await server.stop();
  await new Promise((r) => setTimeout(r, 1_000)); // the late line comes 0.5 s after the stop: an error would surface now
  t.same(errors.map((e) => e.message), [], 'no write after end');
  t.match(readFileSync(join(dir, 'server.log'), 'utf8'), /late line after exit/, 'the late line is in the log');
});
