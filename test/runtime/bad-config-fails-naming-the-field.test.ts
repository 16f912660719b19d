// A wrong config value fails at start with an OptionsError that names the field, the expected form and the value:
// the hand-written cases below, then, for every leaf field of the config schema and of the sections it carries (walked
// by config-leaves.ts, so a new field is covered without touching this file), a value of the wrong type and each value
// just outside its bounds, written in a config module as cluster.config.ts would be.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ConfigSources } from '../../runtime/config.js';
import { isOptionsError } from '../../runtime/options.js';
import '../../app/roles.js'; // registers the loop section (loop.*) with the config loader
import { jsSource, nested, walkConfig } from './config-leaves.js';

const cases: Array<[string, string[], NodeJS.ProcessEnv, string, RegExp]> = [
  ['negative concurrency', ['roles.echo.concurrency=-1'], {}, 'roles.echo.concurrency', /expected an integer >= 1/],
  ['string where a number goes', ['delivery.maxDeliver="lots"'], {}, 'delivery.maxDeliver', /expected an integer/],
  ['bad NATS URL', [], { SPADE_NATS_URL: 'http://x y' }, 'nats.servers[0]', /expected a string matching/],
  ['unknown field', ['host.colour=1'], {}, 'host.colour', /unknown field/],
  ['bad seed from env', [], { SPADE_SEED: '-3' }, 'run.seed', /expected an integer >= 0/],
  ['ttl shorter than two heartbeats', ['host.heartbeatMs=5000', 'host.memberTtlMs=6000'], {}, 'host.memberTtlMs', />= 2 × host.heartbeatMs/],
  ['two budgets', ['run.budgetTokens=1000', 'run.budgetEpisodes=50'], {}, 'run.budgetEpisodes', /no value when run.budgetTokens is set/],
  ['unknown library module', ['loop.modules=["window-serch"]'], {}, 'loop.modules[0]', /a library module/],
  ['bad loop field', ['loop.agent.maxTokens=0'], {}, 'loop.agent.maxTokens', /expected an integer >= 1 and <= 1048576, got 0/],
  ['unknown loop field', ['loop.agent.maxTokenz=3'], {}, 'loop.agent.maxTokenz', /unknown field \(known: maxTokens/],
  ['bad sandbox limit', ['loop.sandbox.limits.callTimeoutMs=-5'], {}, 'loop.sandbox.limits.callTimeoutMs', /expected an integer >= 1 and <= 60000, got -5/],
  ['unknown sandbox limit', ['loop.sandbox.limits.callTimeout=5'], {}, 'loop.sandbox.limits.callTimeout', /unknown field \(known: workers, callTimeoutMs/],
  // The learner's model and optimizer were loose records until the walk found them: checked only on the learner host.
  ['bad learner learning rate', ['loop.learner.adamw.schedule.peakLr="lots"'], {}, 'loop.learner.adamw.schedule.peakLr', /expected a finite number >= 0, got "lots"/],
  ['learner minLr above peakLr', ['loop.learner.adamw={"schedule":{"peakLr":0.001,"minLr":1}}'], {}, 'loop.learner.adamw.schedule.minLr', /expected a finite number in \[0, peakLr=0.001\], got 1/],
  ['learner model width not a multiple of heads', ['loop.learner.model={"width":30,"heads":4}'], {}, 'loop.learner.model.width', /expected a multiple of heads \(4\) with an even head size, got 30/],
  ['unknown learner model field', ['loop.learner.model.colour=1'], {}, 'loop.learner.model.colour', /unknown field \(known: layers, width/],
];

const dir = mkdtempSync(join(tmpdir(), 'spade-bad-config-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const walk = walkConfig();
const table: Array<{ name: string; sources: ConfigSources; field: string; message: RegExp }> = [
  ...cases.map(([name, set, env, field, message]) => ({ name, sources: { set, env }, field, message })),
  ...walk.cases.map((c, i) => {
    const file = join(dir, `case-${i}.mjs`);
    writeFileSync(file, `export default ${jsSource(nested(c.write, c.value))};\n`);
    return { name: `${c.names}: ${c.why} (${jsSource(c.value).slice(0, 40)})`, sources: { file, env: {} }, field: c.names, message: /expected|unknown field|no value/ };
  }),
];

t.ok(walk.leaves.length >= 160 && walk.cases.length > 3 * walk.leaves.length, `the walk reaches every leaf (${walk.leaves.length} leaves, ${walk.cases.length} bad values)`);
t.same(walk.unchecked, [], 'no field of the config is left unchecked (a loose section needs its schema in config-leaves.ts)');
for (const { name, sources, field, message } of table) {
  t.test(name, async (t) => {
    const err = await loadConfig(sources).then(() => null, (e: unknown) => e);
    t.ok(isOptionsError(err), 'an OptionsError');
    if (!isOptionsError(err)) return;
    t.equal(err.path, `config.${field}`, 'names the field');
    t.match(err.message, message, 'says what was expected');
    t.ok(err.message.startsWith(`config.${field}: `), `message starts with config.${field}: ${err.message}`);
  });
}
