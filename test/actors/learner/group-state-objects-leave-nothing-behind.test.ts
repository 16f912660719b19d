// The learner group's optimizer-state objects (`group/opt-v<version>`) are pruned to the last two versions, meta
// entries included: a deleted object otherwise leaves its meta in the object store's stream, one per version for good.
// Real nats-server.
import t from 'tap';
import { publishGroupState } from '../../../actors/learner/group/state.js';
import { NATS_SUBJECTS, OBJECT_NAMES, OBJECT_STORES } from '../../../runtime/subjects.js';
import { ensureTopology } from '../../../runtime/topology.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

t.setTimeout(60_000);

t.test('pruned group-state objects leave no meta behind', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  await ensureTopology(conn, config);
  const m = new Map([['w', new Float32Array([1, 2, 3])]]);
  for (let v = 1; v <= 8; v++) await publishGroupState(conn, v, v, { step: v, m, v: new Map([['w', new Float32Array([4, 5, 6])]]) });
  const os = await conn.objm.open(OBJECT_STORES.weights);
  t.same((await os.list()).map((o) => o.name).sort(), [`${OBJECT_NAMES.groupStatePrefix}7`, `${OBJECT_NAMES.groupStatePrefix}8`], 'the last two versions are kept');
  const info = await conn.jsm.streams.info(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights));
  t.equal(info.state.messages, 4, 'the stream holds their meta and one chunk each, and nothing of the six pruned ones');
});
