// The sampler charges each model call to its phase: one prefill per admitted group and one decode call per step, with
// the tokens they ran and their FLOPs (model/flops.ts); the sampler on its own thread reports the same counts.
import t from 'tap';
import { validateDecoderConfig } from '../../../model/decoder-config.js';
import { forwardFlops } from '../../../model/flops.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { ModelSession } from '../../../model/session.js';
import { TINY, startThreadSampler, tinyWeights } from './tiny.js';

t.test('prefill and decode calls are counted with their tokens and FLOPs', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const sampler = new Sampler(session, tinyWeights(1), 1, null, { seed: 5, stopTokens: [] });
  const thread = await startThreadSampler();
  t.teardown(async () => (await sampler.close(), await thread.close(), await session.release()));
  t.same(sampler.phases(), {}, 'nothing before the first request');

  const out = await sampler.generate({ prompt: [3, 1, 4, 1, 5], temperature: 0, maxTokens: 6 });
  t.equal(out.tokens.length, 6);
  const p = sampler.phases();
  const c = validateDecoderConfig(TINY);
  t.equal(p.prefill!.calls, 1, 'one prefill');
  t.equal(p.prefill!.tokens, 5, 'of the five prompt tokens');
  t.equal(p.prefill!.flops, forwardFlops(c, 5, 5));
  t.equal(p.decode!.calls, sampler.steps, 'one decode call a step');
  t.equal(p.decode!.calls, 5, 'the first token comes from the prefill, the other five from decode steps');
  t.equal(p.decode!.tokens, 5);
  t.ok(p.decode!.flops > forwardFlops(c, 5, 0), 'decode FLOPs: the matmuls of five tokens, and attention over their past');
  t.ok(p.decode!.flops <= forwardFlops(c, 5, c.contextLength), 'attending to no more than the context');
  for (const x of [p.prefill!, p.decode!]) {
    t.ok(x.wallMs > 0, 'wall time measured');
    t.ok(Number.isFinite(x.cpuMs) && x.cpuMs >= 0, 'thread CPU read from /proc');
  }

  await thread.generate({ prompt: [3, 1, 4, 1, 5], temperature: 0, maxTokens: 6 });
  const q = thread.phases();
  t.equal(q.prefill?.calls, 1, 'the thread sampler reports its prefill');
  t.equal(q.decode?.calls, thread.steps, 'and its decode steps');
  t.equal(q.decode?.flops, p.decode!.flops, 'with the same FLOPs for the same work');
});
