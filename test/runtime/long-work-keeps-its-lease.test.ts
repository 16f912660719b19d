// Work longer than ack_wait is kept alive by in-progress acks: it finishes on its first delivery and the server
// never redelivers it.
import t from 'tap';
import { STREAMS, durableName } from '../../runtime/subjects.js';
import { collectResults, publishJobs } from '../helpers/results.js';
import { echoHost } from './echo-host.js';

t.test('a task twice as long as ack_wait is not redelivered', async (t) => {
  const { conn } = await echoHost(t, ['delivery.ackWaitMs=1000'], 'lease');
  await publishJobs(conn, ['slow'], { workMs: 2_500 });
  const [r] = await collectResults(conn, 1);
  t.equal(r!.deliveryCount, 1, 'finished on its first delivery');
  const info = await conn.jsm.consumers.info(STREAMS.jobsEcho, durableName('echo'));
  t.equal(info.num_redelivered, 0, 'the server never redelivered it');
});
