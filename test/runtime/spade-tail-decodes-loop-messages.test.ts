// `spade tail` in a fresh process decodes the loop's messages: the CLI entry (runtime/spade.js) runs the loop's
// composition root, which hands its message catalog to the runtime (runtime/ itself knows none of them).
import t from 'tap';
import { spawn } from 'node:child_process';
import { EnvRejected, type EnvRejectedBody } from '../../actors/loop/messages.js';
import { packFloats, packInts } from '../../actors/loop/packed.js';
import { encode } from '../../runtime/messages.js';
import { repoPath } from '../../runtime/paths.js';
import { SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [repoPath('runtime/spade.js'), ...args], { cwd: repoPath(), env: { ...process.env, SPADE_NATS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('spade tail prints a stored env.rejected decoded, not as undecodable bytes', async (t) => {
  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const designer = { promptTokens: packInts([1, 2]), tokens: packInts([3]), logprobs: packFloats([-0.5]), versions: packInts([0]), text: 'x', finishReason: 'stop' };
  const rejected: EnvRejectedBody = { envId: 'env-r', jobId: 'job-r', iteration: 2, code: 'oops', stage: 'parse', reason: 'SyntaxError', parents: [], designer };
  await conn.js.publish(SUBJECTS.envRejected, encode(EnvRejected, rejected), { msgID: 'tail-test' });

  const out = await run(['tail', SUBJECT_WILDCARDS.env, '--since', '10m', '--count', '1', '--json', '--nats', server.url]);
  t.equal(out.code, 0, `exit 0 (stderr: ${out.stderr})`);
  const rec = JSON.parse(out.stdout.trim()) as { subject: string; type?: string; version?: number; error?: string; body?: Record<string, unknown> };
  t.equal(rec.error, undefined, 'decoded');
  t.equal(rec.subject, SUBJECTS.envRejected);
  t.equal(rec.type, EnvRejected.type);
  t.equal(rec.version, EnvRejected.version);
  t.match(rec.body, { envId: 'env-r', stage: 'parse', reason: 'SyntaxError', designer: { text: 'x', tokens: { bytes: 4 } } });
});
