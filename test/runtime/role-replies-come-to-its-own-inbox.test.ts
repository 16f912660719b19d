// Per-role reply inboxes on a real server: each role's connection receives its replies under `_INBOX.<role>.`, and a
// role's user may subscribe to no other inbox, so it cannot watch the sandbox's answers to another role (or the
// JetStream API's). The refused subscription is a PermissionError naming the role and the subject.
import t from 'tap';
import type { PermissionError } from '../../runtime/errors.js';
import { NATS_SUBJECTS, QUEUE_GROUPS, SUBJECTS } from '../../runtime/subjects.js';
import { ensureTopology } from '../../runtime/topology.js';
import { ADMIN } from '../../runtime/permissions.js';
import { authServer, connectAs } from '../helpers/auth.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Resolves with the first refusal `refused` gets (the server's answer to a SUB comes asynchronously). */
async function firstRefusal(refused: PermissionError[]): Promise<PermissionError> {
  for (let waited = 0; refused.length === 0 && waited < 5_000; waited += 20) await new Promise((res) => setTimeout(res, 20));
  return refused[0]!;
}

t.test("a role's replies come to its own inbox, which no other role may watch", async (t) => {
  const { config } = await authServer(t);
  await ensureTopology(await connectAs(t, config, ADMIN), config);
  const sandbox = await connectAs(t, config, 'sandbox');
  const designer = await connectAs(t, config, 'designer');
  const agentRefused: PermissionError[] = [];
  const agent = await connectAs(t, config, 'agent', agentRefused);

  const replyTo: string[] = [];
  for (const subject of [SUBJECTS.sandboxValidate, SUBJECTS.sandboxStep])
    sandbox.nc.subscribe(subject, { queue: QUEUE_GROUPS.sandbox, callback: (_e, m) => { replyTo.push(m.reply ?? ''); m.respond(enc('verdict')); } });
  await sandbox.nc.flush();
  t.equal(dec((await designer.nc.request(SUBJECTS.sandboxValidate, enc('code'), { timeout: 5_000 })).data), 'verdict', 'the designer gets its answer');
  t.match(replyTo[0], new RegExp(`^${NATS_SUBJECTS.inboxPrefix('designer').replace('.', '\\.')}\\.`), "on the designer's own inbox prefix");

  // The agent tries to watch the designer's replies, and every inbox.
  const seen: string[] = [];
  const watch = agent.nc.subscribe(NATS_SUBJECTS.inbox('designer'), { callback: (e, m) => void (e ? undefined : seen.push(m.subject)) });
  await agent.nc.flush();
  const refusal = await firstRefusal(agentRefused);
  t.match({ role: refusal?.role, operation: refusal?.operation, subject: refusal?.subject, code: refusal?.code, message: refusal?.message },
    { role: 'agent', operation: 'subscription', subject: NATS_SUBJECTS.inbox('designer'), code: 'PERMISSION_DENIED', message: /^role agent may not subscribe to _INBOX\.designer\.>/ }, "the agent's subscription to the designer's inbox is refused, named");
  agent.nc.subscribe('_INBOX.>', { callback: (e, m) => void (e ? undefined : seen.push(m.subject)) });
  await agent.nc.flush();
  for (let waited = 0; agentRefused.length < 2 && waited < 5_000; waited += 20) await new Promise((res) => setTimeout(res, 20));
  t.equal(agentRefused[1]?.subject, '_INBOX.>', 'and to every inbox');

  t.equal(dec((await designer.nc.request(SUBJECTS.sandboxValidate, enc('code'), { timeout: 5_000 })).data), 'verdict', 'the designer still gets its answers');
  await agent.nc.flush();
  t.same(seen, [], 'the agent saw none of them');
  t.ok(watch.isClosed(), 'the refused subscription is closed');
  // The agent's own requests still work: their answers come to its own inbox.
  t.equal(dec((await agent.nc.request(SUBJECTS.sandboxStep, enc('step'), { timeout: 5_000 })).data), 'verdict', 'the agent gets its own answers');
  t.match(replyTo.at(-1), /^_INBOX\.agent\./, "on the agent's inbox prefix");
});
