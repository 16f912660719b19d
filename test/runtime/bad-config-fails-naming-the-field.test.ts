// A wrong config value fails at start with an OptionsError that names the field, the expected form and the value.
import t from 'tap';
import { loadConfig } from '../../runtime/config.js';
import { isOptionsError } from '../../runtime/options.js';
import '../../actors/roles.js'; // registers the loop section (loop.*) with the config loader

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
