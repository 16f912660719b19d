// KvBatch: capacity grows by an eighth of a power of two (never below the need, at most one step above it), rows
// keep their keys/values through joins, growth and leaves, and a batch that empties starts the next burst in the
// buffers it already had instead of fresh ones.
import t from 'tap';
import ort from 'onnxruntime-node';
import { KvBatch, capacityFor, type Joiner } from '../../../model/sampler/kv-batch.js';

const L = 2, K = 2, D = 4;

/** A one-row prefill output of `len` slots whose values name (row tag, layer, head, slot, dim). */
function joiner(tag: number, len: number): Joiner {
  const make = (kv: number) => Array.from({ length: L }, (_, l) => {
    const a = Float32Array.from({ length: K * len * D }, (_, i) => tag * 1e4 + kv * 1e3 + l * 100 + Math.floor(i / D));
    return new ort.Tensor('float32', a, [1, K, len, D]);
  });
  return { cache: { k: make(0), v: make(1) }, row: 0, valid: new Uint8Array(len).fill(1) };
}

/** Row r's first `len` slots of layer 0 keys, head 0, first dim. */
const slots = (b: KvBatch, r: number, len: number): number[] => {
  const k = b.feeds().k[0]!, P = k.dims[2]!;
  return Array.from({ length: len }, (_, j) => (k.data as Float32Array)[((r * K) * P + j) * D]!);
};

t.test('small growth steps, kept values, reused buffers', async (t) => {
  for (let n = 1; n <= 5000; n++) {
    const c = capacityFor(n), step = Math.max(16, 2 ** Math.ceil(Math.log2(n)) / 8);
    if (c < n || c - n >= step || c % 16 !== 0) t.fail(`capacityFor(${n}) = ${c}`);
  }
  t.same([1, 16, 17, 33, 49, 65, 81, 1000, 1025].map(capacityFor), [16, 16, 32, 48, 64, 80, 96, 1024, 1280], 'capacities');

  const b = new KvBatch(L, K, D, 'float32');
  b.repack([], [joiner(1, 33), joiner(2, 5)]);
  t.equal(b.slots, 48, 'two rows, the longest 33 slots: capacity 48');
  const first = slots(b, 0, 3);
  t.same(first, [10000, 10001, 10002], 'row 1 keeps its keys');
  t.same(slots(b, 1, 5), [20000, 20001, 20002, 20003, 20004], 'row 2 keeps its keys');
  // Decode steps up to the capacity, then one more: the batch grows to the next step, not to double.
  for (let i = 0; i < 16; i++) {
    b.reserve();
    const fresh = Array.from({ length: L }, () => new ort.Tensor('float32', new Float32Array(2 * K * D).fill(-7), [2, K, 1, D]));
    b.append({ k: fresh, v: fresh });
  }
  t.equal(b.slots, 64, 'after growth: 64 slots, not 96');
  t.same(slots(b, 0, 3), first, 'row 1 keeps its keys through growth');
  t.same(slots(b, 1, 7), [20000, 20001, 20002, 20003, 20004, -7, -7], "row 2's prompt, then its decoded slots packed behind it");

  const before = b.feeds().k[0]!.data as Float32Array;
  b.repack([], []);
  t.equal(b.rows, 0, 'empty');
  b.repack([], [joiner(3, 30)]);
  const after = b.feeds().k[0]!.data as Float32Array;
  t.equal(after.buffer, before.buffer, 'the next burst starts in the buffers the batch had');
  t.same(slots(b, 0, 3), [30000, 30001, 30002], 'with its own keys');
});
