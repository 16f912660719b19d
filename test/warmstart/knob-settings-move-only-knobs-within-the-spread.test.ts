// The copy stage's settings (warmstart/knob-settings.ts): each is its module with integer knobs at other values
// within [value / spread, value · spread] and nothing else changed, distinct, never the module's own setting and
// never a reserved one; small values are drawn as often as large ones (log-uniform), so one-digit codes occur.
import t from 'tap';
import { knobsOf, withKnobs } from '../../actors/designer/index.js';
import { makeRandom } from '../../sandbox/index.js';
import { knobSetting, knobSettings, loadLibrary } from '../../warmstart/index.js';

const library = loadLibrary();
const modules = ['door-code', 'ticket-close'].map((n) => library.find((e) => e.name === n)!);

t.test('settings move integer knobs within the spread, skip reserved ones, and nothing else', async (t) => {
  const plan = { perModule: 60, spread: 4, reserved: {} };
  const { envs, reserved } = knobSettings(modules, plan, makeRandom(3));
  t.equal(reserved, 0, 'nothing reserved, nothing left out');
  t.equal(envs.length, 120, '60 settings of each module');
  const keys = new Set<string>();
  for (const e of envs) {
    const root = modules.find((m) => e.name.startsWith(`${m.name}{`))!;
    t.ok(root, `${e.name} names its module`);
    const values = Object.fromEntries(knobsOf(e.code).flatMap((k) => (k.kind === 'int' ? [[k.name, k.value]] : [])));
    t.equal(e.code, withKnobs(root.code, values), `${e.name}: the module at its knob values, nothing else changed`);
    for (const k of knobsOf(root.code)) {
      if (k.kind !== 'int') continue;
      const lo = Math.max(1, Math.ceil(k.value / 4)), hi = Math.floor(k.value * 4);
      if (values[k.name]! < lo || values[k.name]! > hi) t.fail(`${e.name}: ${k.name} = ${values[k.name]} outside [${lo}, ${hi}]`);
    }
    t.not(knobSetting(e.code), knobSetting(root.code), `${e.name} is not the module's own setting`);
    t.equal(e.spec.name, root.spec.name, `${e.name} keeps the module's spec name`);
    keys.add(knobSetting(e.code) + root.name);
  }
  t.equal(keys.size, envs.length, 'the settings are distinct');
  const digits = envs.filter((e) => e.name.startsWith('door-code{')).map((e) => Number(/DIGITS=(\d+)/.exec(e.name)![1]));
  t.ok(digits.includes(1) && digits.includes(2), `one- and two-digit codes are drawn (DIGITS ${[...new Set(digits)].sort((a, b) => a - b).join(', ')})`);

  // Reserve a setting the same draw produces: it is left out and counted, and the rest fill its place.
  const taken = knobSetting(envs[0]!.code);
  const again = knobSettings(modules, { ...plan, reserved: { 'door-code': [taken] } }, makeRandom(3));
  t.equal(again.reserved, 1, 'the reserved setting was drawn and left out');
  t.notOk(again.envs.some((e) => e.name.startsWith('door-code{') && knobSetting(e.code) === taken), 'no setting is the reserved one');
  t.equal(again.envs.length, 120, 'the count is still met');
  t.same(knobSettings(modules, plan, makeRandom(3)).envs.map((e) => e.name), envs.map((e) => e.name), 'the same seed draws the same settings');
});
