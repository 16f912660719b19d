// Buffers named in a transfer list move between the threads (the sender's copy is detached), both ways.
import t from 'tap';
import { startEcho } from '../fixtures/worker-rpc/start-echo.js';

t.test('transferred buffers arrive whole and leave the sender detached', async (t) => {
  const rpc = await startEcho({ order: 'concurrent' });
  const sent = new Float32Array([1, 2, 3, 4]).buffer;
  const back = await rpc.request('bytes', sent, { transfer: [sent] });
  t.equal(sent.byteLength, 0, 'moved to the worker, not copied');
  t.same([...new Float32Array(back as ArrayBuffer)], [1, 2, 3, 4], 'and moved back (the worker transferred it in its reply)');
  await rpc.close('echo');
});
