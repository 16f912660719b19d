// A core publish the user may not make has no answer to fail: the server's refusal reaches the client asynchronously,
// and the connection reports it as a PermissionError naming the role, the operation and the subject.
import t from 'tap';
import type { Connection } from '../../runtime/connection.js';
import type { PermissionError } from '../../runtime/errors.js';
import { READER } from '../../runtime/permissions.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { authServer, connectAs } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);

t.test('a core publish is refused asynchronously and reported on the connection', async (t) => {
  const { config } = await authServer(t);
  const refused: PermissionError[] = [];
  const reader: Connection = await connectAs(t, config, READER, refused);
  reader.nc.publish(SUBJECTS.sandboxStep, enc('step'));
  reader.nc.publish(SUBJECTS.weightsLive, enc('chunk'));
  await reader.nc.flush();
  while (refused.length < 2) await new Promise((res) => setTimeout(res, 20));
  t.same(refused.map((e) => [e.role, e.operation, e.subject]), [[READER, 'publish', SUBJECTS.sandboxStep], [READER, 'publish', SUBJECTS.weightsLive]]);
  t.equal(refused[0]!.code, 'PERMISSION_DENIED');
});
