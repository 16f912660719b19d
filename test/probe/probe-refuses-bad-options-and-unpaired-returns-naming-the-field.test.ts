// Whatever the probe is given wrong (a flag, a buffer option, after-returns not paired with before's seeds, a key not
// in the buffer) is refused with a ProbeOptionsError whose field names it.
import t from 'tap';
import { SettingsBuffer, probeGain, validateBufferOptions, validateProbeOptions, isProbeOptionsError } from '../../probe/index.js';

t.test('bad options and unpaired returns are refused, naming the field', async (t) => {
  const base = { modules: ['x.js'], checkpoint: 'ck' };
  t.equal(validateProbeOptions(base).curriculum, 'settings', 'the curriculum is the default');
  for (const [o, field] of [
    [{ minutes: 0 }, '--minutes'], [{ k: 1.5 }, '--k'], [{ children: 7 }, '--children'], [{ lr: 0 }, '--lr'], [{ advantage: 'max' }, '--advantage'],
    [{ curriculum: 'hand' }, '--curriculum'], [{ kl: -0.1 }, '--kl'], [{ modules: [] }, '--modules'], [{ threads: -1 }, '--threads'],
  ] as const) {
    const err = (() => { try { validateProbeOptions({ ...base, ...o } as never); } catch (e) { return e; } })();
    t.ok(isProbeOptionsError(err) && err.field === field, `${JSON.stringify(o)} → ${field}`);
  }
  for (const [o, field] of [[{ perFamily: 0 }, 'buffer.perFamily'], [{ staleness: 2 }, 'buffer.staleness'], [{ emaRate: 0 }, 'buffer.emaRate']] as const) {
    const err = (() => { try { validateBufferOptions(o); } catch (e) { return e; } })();
    t.ok(isProbeOptionsError(err) && err.field === field, `${JSON.stringify(o)} → ${field}`);
  }
  t.throws(() => probeGain({ a: [1, 0] }, { a: [1] }), { code: 'PROBE_OPTIONS', field: 'after.a' });
  t.throws(() => probeGain({ a: [1] }, {}), { code: 'PROBE_OPTIONS', field: 'after.a' });
  t.throws(() => probeGain({}, {}), { code: 'PROBE_OPTIONS', field: 'before' });
  t.throws(() => new SettingsBuffer().observe('nope', [], [], 0), { code: 'PROBE_OPTIONS', field: 'observe.key' });
});
