// Membership keys on a real server with per-role users: a host's heartbeat lives under `<role>.<hostId>` of the role
// whose user writes it, and another role's user may not overwrite or delete it (a PermissionError naming the key's
// subject); the reader still lists every member.
import t from 'tap';
import { listMembers, Membership } from '../../runtime/membership.js';
import { ADMIN, READER } from '../../runtime/permissions.js';
import { BUCKETS, memberKey, NATS_SUBJECTS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { authServer, connectAs, refusal } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** The shared refusal without its message: these assertions compare role, subject and code exactly. */
async function refused(role: string, fn: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const { message: _message, ...named } = await refusal(role, fn);
  return named;
}

t.test("a role's user may not overwrite another role's heartbeat", async (t) => {
  const { config } = await authServer(t);
  await ensureTopology(await connectAs(t, config, ADMIN), config);
  const learner = await connectAs(t, config, 'learner');
  const agent = await connectAs(t, config, 'agent');
  const beat = new Membership(learner, 'host-l', ['learner'], 60_000, () => ({ inflight: 0, handled: 0, failed: 0, deadLettered: 0, draining: false }));
  await beat.start();
  t.teardown(() => beat.stop());

  const key = memberKey('learner', 'host-l');
  const members = await agent.kvm.open(BUCKETS.members);
  t.same(await refused('agent', () => members.put(key, enc('{"hostId":"host-l","draining":true}'))), { role: 'agent', subject: NATS_SUBJECTS.kvKey(BUCKETS.members, key), code: 'PERMISSION_DENIED' }, "the agent may not overwrite the learner's heartbeat");
  t.same(await refused('agent', () => members.delete(key)), { role: 'agent', subject: NATS_SUBJECTS.kvKey(BUCKETS.members, key), code: 'PERMISSION_DENIED' }, 'nor delete it');
  t.same(await refused('agent', () => members.put('host-l', enc('{}'))), { role: 'agent', subject: NATS_SUBJECTS.kvKey(BUCKETS.members, 'host-l'), code: 'PERMISSION_DENIED' }, 'nor write a key outside its own role');
  t.same(await refused('agent', () => members.put(memberKey('agent', 'host-a'), enc('{}'))), { notRefused: true }, 'its own role\'s keys it may write');
  await members.delete(memberKey('agent', 'host-a'));

  const listed = await listMembers(await connectAs(t, config, READER));
  t.same(listed.map((m) => [m.hostId, m.roles, m.draining]), [['host-l', ['learner'], false]], 'the reader lists the learner host, as it wrote itself');
});
