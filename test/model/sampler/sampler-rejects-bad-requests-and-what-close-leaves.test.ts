// A request with a bad field rejects with a ModelOptionError naming the field; close() rejects the requests still
// running and every later one with SamplerClosedError.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

t.test('bad requests reject naming the field; close() rejects what is left', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const s = new Sampler(session, tinyWeights(3), 1);
  const why = (p: Promise<unknown>): Promise<string> => p.then(() => 'resolved', (e: { name: string; field?: string }) => `${e.name}:${e.field ?? ''}`);
  t.equal(await why(s.generate({ prompt: [1], topP: 0 })), 'ModelOptionError:topP');
  t.equal(await why(s.generate({ prompt: [99] })), 'ModelOptionError:prompt');
  t.equal(await why(s.generate({ prompt: 'text' })), 'ModelOptionError:prompt', 'text needs a codec');
  const running = s.generate({ prompt: [1, 2], maxTokens: 40 });
  s.onStep = (step) => { if (step === 2) void s.close(); };
  t.equal(await why(running), 'SamplerClosedError:');
  t.equal(await why(s.generate({ prompt: [1] })), 'SamplerClosedError:');
  await session.release();
});
