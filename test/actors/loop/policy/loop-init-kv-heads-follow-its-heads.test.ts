// A loop.policy.init that names its heads but not its kv heads gets one kv head per head (the default shape's
// grouped kv heads do not stay behind), as a decoder config does; a kv head count that does not divide heads is refused.
import t from 'tap';
import { validateDecoderConfig } from '../../../../model/decoder-config.js';
import { validateLoopOptions } from '../../../../actors/loop/options.js';
import { isOptionsError } from '../../../../runtime/options.js';

t.test('a loop init that names its heads but not its kv heads gets one kv head per head', async (t) => {
  const init = validateLoopOptions({ policy: { init: { layers: 1, width: 32, heads: 2, contextLength: 64 } } }).policy.init;
  t.equal(init.kvHeads, 2);
  t.equal(validateDecoderConfig({ layers: 1, width: 32, heads: 2, contextLength: 64, vocab: 10 }).kvHeads, 2, 'as the decoder config does');
  const bad = (() => {
    try {
      return validateLoopOptions({ policy: { init: { heads: 8, kvHeads: 3 } } });
    } catch (err) {
      return err;
    }
  })();
  t.ok(isOptionsError(bad) && bad.path === 'loop.policy.init.kvHeads', `kv heads that do not divide heads are refused: ${String(bad)}`);
});
