// Bad learning-rate schedule options throw ModelOptionError naming the field.
import t from 'tap';
import { isModelOptionError } from '../../../model/errors.js';
import { lrSchedule } from '../../../model/lr-schedule.js';
import { caught } from '../tokenizer/helpers.js';

t.test('options are validated by name', async (t) => {
  for (const [bad, field] of [[{ warmupSteps: -1 }, 'warmupSteps'], [{ warmupSteps: 10, decaySteps: 5 }, 'decaySteps'], [{ peakLr: NaN }, 'peakLr']] as const) {
    const e = caught(() => lrSchedule(bad));
    t.ok(isModelOptionError(e) && String(e).includes(`options.${field}`), String(e));
  }
});
