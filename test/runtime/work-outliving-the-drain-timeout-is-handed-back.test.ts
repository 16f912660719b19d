// On SIGTERM, work that outlives the drain timeout is handed back (nak), not lost, and the host still exits 0.
import t from 'tap';
import { STREAMS, durableName } from '../../runtime/subjects.js';
import { hostWithJobInFlight } from './job-in-flight.js';

t.test('work that outlives the drain timeout is handed back (nak), not lost', async (t) => {
  const { conn, host } = await hostWithJobInFlight(t, 'very-long', 30_000, ['host.drainTimeoutMs=200']);
  host.child.kill('SIGTERM');
  t.equal((await host.exited).code, 0);
  t.match(host.output(), /naked=1/);
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, durableName('echo'));
  t.equal(info.num_pending + info.num_ack_pending + info.num_redelivered >= 1, true, 'the job is back in the queue');
});
