// A server with per-role users admits no one without credentials, and every credentials problem is an AuthError that
// says what to change: none given, a missing file (its expected path), a file open to other users (path and mode),
// a malformed one, another run's credentials (their path).
import t from 'tap';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openConnection } from '../../runtime/connection.js';
import { ensureCredentials } from '../../runtime/credentials.js';
import { isAuthError } from '../../runtime/errors.js';
import { testConfig, tempDir } from '../helpers/nats.js';
import { authServer } from '../helpers/auth.js';

async function failure(p: Promise<{ close(): Promise<void> }>): Promise<Error> {
  try {
    await (await p).close();
  } catch (err) {
    return err as Error;
  }
  throw new Error('connected');
}

t.test('no credentials, no connection; bad credentials name their file', async (t) => {
  const { server, credsDir } = await authServer(t, ['agent', 'reader']);
  const bare = await testConfig([server.url]);
  const none = await failure(openConnection(bare.nats, 'anon', 5_000));
  t.ok(isAuthError(none), `no credentials: an AuthError (${none.message})`);
  t.match(none.message, /refused a connection without credentials/);
  t.match(none.message, /nats\.credsDir/, 'says which setting to give');

  const withDir = await testConfig([server.url], [`nats.credsDir=${JSON.stringify(credsDir)}`]);
  const missing = await failure(openConnection(withDir.nats, 'x', 5_000, { role: 'learner' }));
  t.ok(isAuthError(missing));
  t.match(missing.message, `no credentials for role learner: expected ${join(credsDir, 'learner.json')}`);

  chmodSync(join(credsDir, 'agent.json'), 0o644);
  const open = await failure(openConnection(withDir.nats, 'x', 5_000, { role: 'agent' }));
  t.ok(isAuthError(open));
  t.match(open.message, `${join(credsDir, 'agent.json')} is open to other users (mode 0644): chmod 600`);
  chmodSync(join(credsDir, 'agent.json'), 0o600);

  writeFileSync(join(credsDir, 'reader.json'), '{"user": 1}', { mode: 0o600 });
  const bad = await failure(openConnection(withDir.nats, 'x', 5_000, { role: 'reader' }));
  t.ok(isAuthError(bad));
  t.match(bad.message, `${join(credsDir, 'reader.json')}: expected { "nkey", "seed" } or { "user", "pass" }`);

  // Another run's credentials: a valid file the server does not know.
  const other = join(tempDir(t), 'auth');
  ensureCredentials(other, ['agent']);
  const otherDir = await testConfig([server.url], [`nats.credsDir=${JSON.stringify(other)}`]);
  const stranger = await failure(openConnection(otherDir.nats, 'x', 5_000, { role: 'agent' }));
  t.ok(isAuthError(stranger));
  t.match(stranger.message, `refused role agent's credentials (${join(other, 'agent.json')})`);

  const ok = await openConnection(withDir.nats, 'agent', 5_000, { role: 'agent' });
  t.equal(ok.role, 'agent', 'the right file connects');
  await ok.close();
});
