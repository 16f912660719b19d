// Rows that cannot fit the model's context are dropped; when every row of a role is too long (a Hugging Face model
// with a short max_position_embeddings, say), the data stream says so with a typed error naming the context length,
// instead of looking for a row that fits for ever.
import t from 'tap';
import { loadModelCodec, promptFormat } from '../../model/index.js';
import { WarmStartData } from '../../warmstart/data-stream.js';
import { WarmStartError } from '../../warmstart/errors.js';
import { loadLibrary } from '../../warmstart/library.js';
import type { DesignerEdit } from '../../warmstart/edits.js';
import { hfFixture } from '../helpers/hf-fixture.js';

t.test('a role whose rows all exceed the context is a typed error', async (t) => {
  const f = promptFormat((await loadModelCodec(hfFixture('qwen2-f32-tied')))!);
  const library = loadLibrary();
  const e = library[0]!;
  const edits: DesignerEdit[] = [{ root: e.name, parent: e.code, child: e.code, doc: 'the sea', edits: [], depth: 1 }];
  const options = { seed: 1, batchTokens: 4096, maxMemory: 0, agentMaxPromptTokens: 512, agentFraction: 0 };
  const long = new WarmStartData(f, library, edits, [], { ...options, contextLength: 32 });
  let err: unknown = null;
  try {
    long.nextBatch(0);
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof WarmStartError && err.code === 'WARM_START_CONTEXT' && err.data.role === 'designer' && err.data.contextLength === 32, `typed error: ${String(err)}`);
  t.match(String(err), /longer than the model's context \(32 tokens\).*contextLength/);
  const fits = new WarmStartData(f, library, edits, [], { ...options, contextLength: 8192 });
  const batch = fits.nextBatch(0);
  t.equal(batch.role, 'designer');
  t.equal(batch.rows.length, 1, 'with room, the same row is served');
});
