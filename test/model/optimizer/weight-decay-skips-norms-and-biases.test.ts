// AdamW's weight decay skips norms and biases by default and follows a custom predicate when given one.
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';

t.test('weight decay skips norms and biases by default and follows a custom predicate', async (t) => {
  const zero = (n: number): Float32Array => new Float32Array(n);
  const sched = { peakLr: 0.1, warmupSteps: 0, decaySteps: 1, minLr: 0.1 };
  const opt = new AdamW({ weightDecay: 0.5, schedule: sched });
  const p = new Map([['w', Float32Array.of(2)], ['norm.weight', Float32Array.of(2)], ['head.bias', Float32Array.of(2)]]);
  opt.update(p, new Map([['w', zero(1)], ['norm.weight', zero(1)], ['head.bias', zero(1)]]));
  t.ok(Math.abs(p.get('w')![0]! - 2 * (1 - 0.1 * 0.5)) < 1e-7, 'w shrinks by lr * wd');
  t.equal(p.get('norm.weight')![0], 2, 'norm untouched');
  t.equal(p.get('head.bias')![0], 2, 'bias untouched');
  const custom = new AdamW({ weightDecay: 0.5, schedule: sched, decay: (n) => n === 'norm.weight' });
  const q = new Map([['w', Float32Array.of(2)], ['norm.weight', Float32Array.of(2)]]);
  custom.update(q, new Map([['w', zero(1)], ['norm.weight', zero(1)]]));
  t.equal(q.get('w')![0], 2);
  t.ok(Math.abs(q.get('norm.weight')![0]! - 1.9) < 1e-6);
});
