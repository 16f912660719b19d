// The model config hash that weight payloads carry ignores key order and changes with any value.
import t from 'tap';
import { configHash } from '../../weight-sync/index.js';
import { SMALL } from './setup.js';

t.test('config hash ignores key order', async (t) => {
  t.equal(configHash({ b: 1, a: { y: 2, x: [1, 2] } }), configHash({ a: { x: [1, 2], y: 2 }, b: 1 }));
  t.not(configHash(SMALL), configHash({ ...SMALL, ffnHidden: 64 }));
});
