// A micro-batch is bounded in rows x padded length (microBatchTokens) and in rows x padded length² (microBatchCells):
// the training graph's attention tensors hold heads x that many values, and onnxruntime's arena keeps the largest
// pass's memory for good. Pure logic; that any grouping accumulates to the same gradients is
// micro-batches-accumulate-to-the-gradients-of-one-batch.
import t from 'tap';
import type { Row } from '../../../actors/learner/index.js';
import { microBatches } from '../../../actors/learner/micro-batches.js';
import { DEFAULT_LEARNER_OPTIONS } from '../../../actors/learner/options.js';

const rows = (lengths: number[]): Row[] => lengths.map((n) => ({ tokens: new Array<number>(n).fill(1) }) as unknown as Row);
const shape = (mbs: Row[][]) => mbs.map((mb) => mb.map((r) => r.tokens.length));

t.test('micro batches keep within their attention cells', async (t) => {
  t.test('long rows split by cells where tokens alone would keep them together', async (t) => {
    const long = rows([2000, 2000, 2000, 2000]);
    t.same(shape(microBatches(long, 8_192)), [[2000, 2000, 2000, 2000]], 'tokens only: 8000 tokens, one pass of 4 x 2000² cells');
    t.same(shape(microBatches(long, 8_192, 2 ** 23)), [[2000, 2000], [2000, 2000]], 'within 2^23 cells: two rows a pass');
    t.same(shape(microBatches(rows([3000, 10]), 8_192, 2 ** 23)), [[3000], [10]], 'a row over the bound goes alone');
  });

  t.test('short rows are grouped as before', async (t) => {
    const short = rows([500, 400, 300, 1000, 900]);
    t.same(microBatches(short, 8_192, 2 ** 23), microBatches(short, 8_192));
  });

  t.test('the learner bounds cells by default', async (t) => {
    t.equal(DEFAULT_LEARNER_OPTIONS.batching.microBatchCells, 2 ** 23);
  });
});
