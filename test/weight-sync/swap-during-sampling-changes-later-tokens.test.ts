// End to end with a real tiny model: a version published while a batch is sampling reaches the Sampler through
// the watcher and swaps between decode steps. Requests in flight all finish; tokens sampled before the swap keep
// the old version and the old weights' values, later tokens carry the new version, later requests use the new weights.
import t from 'tap';
import { parameterShapes } from '../../model/decoder.js';
import { validateDecoderConfig } from '../../model/decoder-config.js';
import { Sampler, type SampleOutput } from '../../model/sampler/sampler.js';
import { ModelSession } from '../../model/session.js';
import { WeightPublisher, watchIntoSampler } from '../../weight-sync/index.js';
import { TINY, tinyWeights } from '../model/sampler/tiny.js';
import { twoConnections } from './setup.js';

t.setTimeout(60_000); // waits below are on events; this turns a missed one into a quick failure

const PROMPTS = [[3, 1, 4], [1, 5, 9, 2, 6], [5, 3]];
const run = (s: Sampler): Promise<SampleOutput[]> => Promise.all(PROMPTS.map((prompt) => s.generate({ prompt, temperature: 0, maxTokens: 12 })));

t.test('a swap published mid-batch', async (t) => {
  const { learner, sampler: samplerConn } = await twoConnections(t);
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  t.teardown(() => session.release());
  // Paces the engine, not the thing under test: once the publish is under way, the next step waits until the
  // watcher has handed the new version to the sampler, so the swap point does not depend on network timing.
  let gate: Promise<void> | null = null;
  const paced = new Proxy(session, {
    get(target, p) {
      if (p === 'step') return async (...args: Parameters<ModelSession['step']>) => { await gate; return target.step(...args); };
      const v = Reflect.get(target, p, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const shapes = parameterShapes(TINY);
  const publisher = new WeightPublisher(learner, { modelConfig: validateDecoderConfig(TINY), shapes });
  await publisher.publish(tinyWeights(1), { version: 1, step: 0 });

  const sampler = new Sampler(paced, tinyWeights(1), 1);
  t.teardown(() => sampler.close());
  const watcher = await watchIntoSampler(samplerConn, sampler, { shapes, modelConfig: validateDecoderConfig(TINY) });
  t.teardown(() => watcher.stop());
  t.equal(watcher.version, 1, 'starts at the version the sampler runs');

  let published: Promise<unknown> = Promise.resolve();
  sampler.onStep = (step) => {
    if (step !== 4) return;
    published = publisher.publish(tinyWeights(2), { version: 2, step: 1 });
    gate = watcher.waitForVersion(2);
  };
  const outs = await run(sampler);
  await published;
  // Request 0's token 0 comes from prefill and decode steps 1..5 give its tokens 1..5 (step 5 was already fed the
  // old weights while it waited for the watcher); the swap lands before step 6. Requests 1 and 2 arrive while that
  // first prefill runs and (with the current admission) join one step later, so they hold 5 old tokens.
  const split = outs.map((out) => out.versions.filter((v) => v === 1).length);
  t.equal(split[0], 6, 'request 0 switches at token 6');
  outs.forEach((out, i) => {
    t.equal(out.finishReason, 'length', `request ${i} finished, not dropped`);
    t.ok(split[i]! >= 5 && split[i]! <= 6, `request ${i} switched at the same decode step (token ${split[i]})`);
    t.same(out.versions, [...Array(split[i]).fill(1), ...Array(12 - split[i]!).fill(2)], `request ${i}: old version first, then only the new`);
  });

  const oldOnly = new Sampler(session, tinyWeights(1), 1);
  const before = await run(oldOnly);
  await oldOnly.close();
  outs.forEach((out, i) => {
    const n = split[i]!;
    t.same(out.tokens.slice(0, n), before[i]!.tokens.slice(0, n), `request ${i}: tokens before the swap are the old weights'`);
    t.same(out.logprobs.slice(0, n), before[i]!.logprobs.slice(0, n));
  });
  t.ok(outs.some((out, i) => out.logprobs.slice(split[i]).join() !== before[i]!.logprobs.slice(split[i]).join()), 'tokens after the swap come from other weights');

  const after = await run(sampler);
  const fresh = new Sampler(session, tinyWeights(2), 2);
  const ref = await run(fresh);
  await fresh.close();
  after.forEach((out, i) => {
    t.same(out.versions, Array(12).fill(2), 'later requests run version 2');
    t.same(out.tokens, ref[i]!.tokens, 'with exactly the published weights');
    t.same(out.logprobs, ref[i]!.logprobs);
  });
});
