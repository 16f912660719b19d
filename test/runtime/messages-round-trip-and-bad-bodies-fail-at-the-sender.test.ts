// Pure logic: a message survives encode → decode unchanged, and a body its schema rejects fails at the sender.
import t from 'tap';
import { EchoJob, type EchoJobBody } from '../../runtime/message-types.js';
import { decode, decodeAny, encode } from '../../runtime/messages.js';

t.test('messages round-trip and reject wrong bodies at the sender', async (t) => {
  const job: EchoJobBody = { id: 'a', payload: new Uint8Array([1, 2, 3]) };
  t.same(decode(EchoJob, encode(EchoJob, job)), job);
  t.equal(decodeAny(encode(EchoJob, job)).version, 1);
  t.throws(() => encode(EchoJob, { id: '', payload: new Uint8Array() }), /cannot send echo.job: echo.job.id/);
});
