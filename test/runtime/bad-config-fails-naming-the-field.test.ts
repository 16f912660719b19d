// A wrong config value fails at start with an OptionsError that names the field, the expected form and the value.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../runtime/config.js';
import { isOptionsError } from '../../runtime/options.js';
import { resolveRoles } from '../../runtime/roles.js';
import { ROLE_FACTORIES } from '../../actors/roles.js';
import { spawnHost } from '../helpers/host-process.js';
import { tempDir } from '../helpers/nats.js';

const cases: Array<[string, string[], NodeJS.ProcessEnv, string, RegExp]> = [
  ['negative concurrency', ['roles.echo.concurrency=-1'], {}, 'roles.echo.concurrency', /expected an integer >= 1/],
  ['string where a number goes', ['delivery.maxDeliver="lots"'], {}, 'delivery.maxDeliver', /expected an integer/],
  ['bad NATS URL', [], { SPADE_NATS_URL: 'http://x y' }, 'nats.servers[0]', /expected a string matching/],
  ['unknown field', ['host.colour=1'], {}, 'host.colour', /unknown field/],
  ['bad seed from env', [], { SPADE_SEED: '-3' }, 'run.seed', /expected an integer >= 0/],
  ['ttl shorter than two heartbeats', ['host.heartbeatMs=5000', 'host.memberTtlMs=6000'], {}, 'host.memberTtlMs', />= 2 × host.heartbeatMs/],
  ['bad loop field', ['loop.agent.maxTokens=0'], {}, 'loop.agent.maxTokens', /expected an integer >= 1 and <= 1048576, got 0/],
  ['unknown loop field', ['loop.agent.maxTokenz=3'], {}, 'loop.agent.maxTokenz', /unknown field \(known: maxTokens/],
  ['bad sandbox limit', ['loop.sandbox.limits.callTimeoutMs=-5'], {}, 'loop.sandbox.limits.callTimeoutMs', /expected an integer >= 1 and <= 60000, got -5/],
  ['unknown sandbox limit', ['loop.sandbox.limits.callTimeout=5'], {}, 'loop.sandbox.limits.callTimeout', /unknown field \(known: workers, callTimeoutMs/],
];

for (const [name, set, env, field, message] of cases) {
  t.test(name, async (t) => {
    const err = await loadConfig({ set, env }).then(() => null, (e: unknown) => e);
    t.ok(isOptionsError(err), 'an OptionsError');
    if (!isOptionsError(err)) return;
    t.equal(err.path, `config.${field}`, 'names the field');
    t.match(err.message, message, 'says what was expected');
    t.ok(err.message.startsWith(`config.${field}: `), `message starts with config.${field}: ${err.message}`);
  });
}

t.test('malformed --set and unloadable --config', async (t) => {
  await t.rejects(loadConfig({ set: ['no-equals-sign'], env: {} }), /expected path=value/);
  const dir = tempDir(t);
  const file = join(dir, 'bad.json');
  writeFileSync(file, '{ not json');
  await t.rejects(loadConfig({ file, env: {} }), /--config .*cannot load/);
});

t.test('unknown role names host.roles and lists the known ones', async (t) => {
  t.throws(() => resolveRoles(['nope'], ROLE_FACTORIES), /config\.host\.roles: unknown role "nope" \(known: all, echo/);
});

t.test('node runtime/start.js exits non-zero with the field in its message', async (t) => {
  const host = spawnHost(t, ['--set', 'roles.echo.concurrency=0'], { SPADE_NATS_URL: 'nats://127.0.0.1:1' });
  const exit = await host.exited;
  t.equal(exit.code, 1);
  t.match(host.output(), /OptionsError: config\.roles\.echo\.concurrency: expected an integer >= 1 and <= 4096, got 0/);
  const usage = spawnHost(t, ['--no-such-flag']);
  t.equal((await usage.exited).code, 2, 'unknown flag is a usage error');
});
