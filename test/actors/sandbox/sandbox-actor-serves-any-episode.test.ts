// The sandbox role over NATS: validation and steps served by host processes; an episode keeps to its
// host while that host lives, and continues on another host (by replay) after a kill -9.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { SandboxClient } from '../../../actors/sandbox/sandbox-client.js';
import { SandboxReply } from '../../../actors/sandbox/sandbox-messages.js';
import { decode } from '../../../runtime/messages.js';
import { repoPath } from '../../../runtime/paths.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { SandboxPool, isEnvError } from '../../../sandbox/index.js';
import { spawnHost } from '../../helpers/host-process.js';
import { connected, natsServer, testConfig } from '../../helpers/nats.js';

const code = readFileSync(repoPath('test/fixtures/sum-to-target.js'), 'utf8');

t.test('sandbox hosts serve validation and episodes; a lost host costs a replay, not the episode', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const flags = (id: string) => ['--nats', server.url, '--role', 'sandbox', '--host-id', id, '--set', 'roles.sandbox.threads=1'];
  const a = spawnHost(t, flags('sbx-a'));
  const b = spawnHost(t, flags('sbx-b'));
  await Promise.all([a.waitFor(/running roles \[sandbox\]/), b.waitFor(/running roles \[sandbox\]/)]);
  const client = new SandboxClient(conn.nc);

  const report = await client.validate(code);
  t.equal(report.ok, true, 'the fixture validates remotely');

  // Reference: the same episode on a local pool.
  const local = new SandboxPool({ workers: 1 });
  t.teardown(() => local.close());
  const actions = ['9', '9', '5'];
  const want = [];
  for (let i = 1; i <= actions.length; i++) want.push(await local.step({ code, seed: 7, actions: actions.slice(0, i) }));

  const first = await client.reset({ code, seed: 7, episodeId: 'ep-1' });
  t.ok(first.observation.length > 0);
  const got = [await client.step({ codeHash: first.codeHash, seed: 7, actions: actions.slice(0, 1), episodeId: 'ep-1' })];
  t.equal(got[0]!.live, true, 'second call hit the live instance on the same host (affinity)');
  // Kill whichever host serves the episode; the next step must still succeed elsewhere by replay.
  const probe = await conn.nc.request(SUBJECTS.sandboxStep, new Uint8Array([0xc1]), { timeout: 5_000 });
  t.equal(decode(SandboxReply, probe.data).ok, false, 'garbage gets a typed error reply');
  a.child.kill('SIGKILL');
  await a.exited;
  for (let i = 2; i <= actions.length; i++) got.push(await client.step({ codeHash: first.codeHash, seed: 7, actions: actions.slice(0, i), episodeId: 'ep-1' }));
  t.same(
    got.map((r) => [r.observation, r.reward, r.done]),
    want.map((r) => [r.observation, r.reward, r.done]),
    'remote episode equals the local one, across the host loss',
  );

  const bad = await client.step({ code: 'export default 42', seed: 1, actions: ['x'] }).then(() => null, (e: unknown) => e);
  t.ok(isEnvError(bad), `broken code gives a typed environment error (${(bad as Error)?.name})`);
  b.child.kill('SIGTERM');
  t.equal((await b.exited).code, 0, 'sandbox host drains and exits 0');
});
