// The sampler on its own thread rejects a bad request with a typed error carrying the worker's reason, and a thread
// that cannot start (a config the weights do not fit) with a typed error saying so.
import t from 'tap';
import { validateDecoderConfig } from '../../../model/decoder-config.js';
import { ThreadSampler, isSamplerThreadError } from '../../../model/sampler/thread.js';
import { TINY, startThreadSampler as start, tinyWeights } from './tiny.js';

const config = validateDecoderConfig(TINY);

t.test('bad requests and a thread that cannot start are typed', async (t) => {
  const thread = await start();
  t.teardown(() => thread.close());
  const bad = await thread.generate({ prompt: [1, 99], maxTokens: 2 }).then(() => null, (e: unknown) => e);
  t.ok(isSamplerThreadError(bad), String(bad));
  t.match((bad as Error).message, /token ids in \[0, 26\)/, 'the worker\'s reason comes through');
  const none = await ThreadSampler.start({ config: { ...config, width: 30 }, weights: tinyWeights(1), version: 0 }).then(() => null, (e: unknown) => e);
  t.ok(isSamplerThreadError(none), String(none));
  t.match((none as Error).message, /could not start/);
});
