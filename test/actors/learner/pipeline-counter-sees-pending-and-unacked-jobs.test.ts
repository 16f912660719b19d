// The learner's count of work in flight (what keeps a quiet incomplete iteration waiting) reads the pipeline
// consumers of a real server: design jobs and raw trajectory groups pending or unacked count.
import t from 'tap';
import { pipelineWorkInFlight } from '../../../actors/learner/work-in-flight.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.test('the pipeline counter sees pending and unacked jobs', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const count = pipelineWorkInFlight(conn);
  t.equal(await count(), 0, 'an empty pipeline');
  await conn.js.publish(SUBJECTS.jobDesign, new Uint8Array([1]));
  await conn.js.publish(SUBJECTS.trajRaw, new Uint8Array([2]));
  t.equal(await count(), 2, 'a design job and a raw trajectory group');
});
