// When the learner updates and on what: size-triggered minibatches, iteration-aligned ones (one iteration per update
// once all its batches are in), the quiet-time flush, and stragglers of an iteration already trained.
import t from 'tap';
import { selectMinibatch, type Buffered, type MinibatchOptions } from '../../../actors/learner/minibatch.js';

const item = (trajId: string, iteration: number, tokens = 10): Buffered => ({ trajId, role: 'agent', rows: [], tokens, minVersion: 0, advantage: 1, iteration });
const ids = (s: ReturnType<typeof selectMinibatch>) => ('take' in s ? s.take.map((b) => b.trajId) : `wait ${s.waitMs}`);
const size: MinibatchOptions = { minibatchTrajectories: 3, minibatchTokens: 100, flushAfterMs: 1000, iterationBatches: 0 };
const iter: MinibatchOptions = { ...size, iterationBatches: 2 };

t.test('minibatches are selected by size or by iteration', async (t) => {
  t.test('size mode: count, tokens, or quiet time', async (t) => {
    const buf = [item('a', 0), item('b', 0)];
    t.equal(ids(selectMinibatch(buf, () => 0, 400, size)), 'wait 600', 'two of three, 400 ms quiet: wait the rest of the flush time');
    buf.push(item('c', 1), item('d', 1));
    t.same(ids(selectMinibatch(buf, () => 0, 0, size)), ['a', 'b', 'c'], 'three: train, oldest first');
    t.same(buf.map((b) => b.trajId), ['d']);
    t.same(ids(selectMinibatch([item('big', 0, 150)], () => 0, 0, size)), ['big'], 'token budget reached');
    t.same(ids(selectMinibatch(buf, () => 0, 1000, size)), ['d'], 'quiet for flushAfterMs: train what is there');
    t.equal(ids(selectMinibatch([], () => 0, 5000, size)), 'wait 1000', 'empty buffer: nothing to do');
  });

  t.test('iteration mode: the oldest iteration once all its batches are in', async (t) => {
    const buf = [item('a', 0), item('b', 1), item('c', 0), item('d', 1)];
    const seen = new Map([[0, 1], [1, 2]]);
    t.equal(ids(selectMinibatch(buf, (i) => seen.get(i) ?? 0, 0, iter)), 'wait 1000', 'iteration 1 is complete but 0 is not: in order');
    seen.set(0, 2);
    t.same(ids(selectMinibatch(buf, (i) => seen.get(i) ?? 0, 0, iter)), ['a', 'c'], 'iteration 0 alone, whatever its size');
    t.same(ids(selectMinibatch(buf, (i) => seen.get(i) ?? 0, 0, iter)), ['b', 'd']);
    const late = [item('x', 5), item('y', 6)];
    t.same(ids(selectMinibatch(late, () => 1, 1000, iter)), ['x'], 'quiet flush trains the oldest, incomplete iteration');
    const straggler = [item('s', 5), item('z', 7)];
    t.same(ids(selectMinibatch(straggler, (i) => (i <= 5 ? Infinity : 1), 0, iter)), ['s'], 'a straggler of a trained iteration goes at once');
  });
});
