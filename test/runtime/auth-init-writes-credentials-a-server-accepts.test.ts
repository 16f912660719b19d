// `spade auth init DIR --roles …` writes per-role credentials (0600) and a server config fragment; a nats-server run
// with that fragment admits each role with its file, and a second run adds roles without changing the first ones.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openConnection } from '../../runtime/connection.js';
import { AUTH_CONF_FILE } from '../../runtime/credentials.js';
import { startNatsServer } from '../../runtime/nats-server.js';
import { repoPath } from '../../runtime/paths.js';
import { tempDir, testConfig } from '../helpers/nats.js';

function spade(...args: string[]) {
  return spawnSync(process.execPath, [repoPath('runtime/spade.js'), ...args], { cwd: repoPath(), encoding: 'utf8' });
}

async function admits(t: { pass(m: string): void }, dir: string, roles: string[], store: string): Promise<void> {
  const server = await startNatsServer({ storeDir: store, authorization: readFileSync(join(dir, AUTH_CONF_FILE), 'utf8') });
  try {
    const config = await testConfig([server.url], [`nats.credsDir=${JSON.stringify(dir)}`]);
    for (const role of roles) {
      const conn = await openConnection(config.nats, role, 5_000, { role });
      await conn.nc.flush();
      t.pass(`${role} connects with ${conn.credentialsPath}`);
      await conn.close();
    }
  } finally {
    await server.stop();
  }
}

t.test('auth init: nkeys, then more roles, then passwords', async (t) => {
  const root = tempDir(t);
  const dir = join(root, 'auth');
  const first = spade('auth', 'init', dir, '--roles', 'agent,reader');
  t.equal(first.status, 0, first.stderr);
  t.match(first.stdout, /wrote agent\.json, reader\.json and .*nats-auth\.conf/);
  for (const f of ['agent.json', 'reader.json', AUTH_CONF_FILE]) t.equal(statSync(join(dir, f)).mode & 0o777, 0o600, `${f} is 0600`);
  t.equal(statSync(dir).mode & 0o777, 0o700, 'the directory is 0700');
  const agent = JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8')) as { nkey: string; seed: string };
  t.match(agent, { nkey: /^U/, seed: /^SU/ }, 'an nkey and its seed');
  const conf = readFileSync(join(dir, AUTH_CONF_FILE), 'utf8');
  t.ok(conf.includes(agent.nkey) && !conf.includes(agent.seed), 'the fragment holds the public key, not the seed');
  await admits(t, dir, ['agent', 'reader'], join(root, 'nats1'));

  t.equal(spade('auth', 'init', dir, '--roles', 'learner').status, 0);
  t.equal(JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8')).seed, agent.seed, 'existing credentials are kept');
  await admits(t, dir, ['agent', 'reader', 'learner'], join(root, 'nats2'));

  const pw = join(root, 'pw');
  t.equal(spade('auth', 'init', pw, '--roles', 'sandbox', '--password').status, 0);
  t.match(JSON.parse(readFileSync(join(pw, 'sandbox.json'), 'utf8')), { user: 'spade-sandbox', pass: /^[\w-]{32}$/ });
  await admits(t, pw, ['sandbox'], join(root, 'nats3'));

  const bad = spade('auth', 'init', dir, '--roles', 'nobody');
  t.equal(bad.status, 2, 'an unknown role is a usage error');
  t.match(bad.stderr, /unknown role "nobody"/);
});
