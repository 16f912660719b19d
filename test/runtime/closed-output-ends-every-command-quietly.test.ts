// Every `spade` command ends quietly when the reader of its output goes away (`spade env check FILE | head -1`,
// `spade eval --help | true`): exit code 0 while it was still running (its own code once it had finished, as for a
// bare `spade`, 2), and no unhandled EPIPE stack trace on stderr. A host (`spade start`) whose output is closed drains
// as on SIGTERM and exits 0. Real processes, real pipes, a real nats-server.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { EnvRejected, type EnvRejectedBody } from '../../actors/loop/messages.js';
import { packFloats, packInts } from '../../actors/loop/packed.js';
import { encode } from '../../runtime/messages.js';
import { repoPath } from '../../runtime/paths.js';
import { SUBJECTS, SUBJECT_WILDCARDS } from '../../runtime/subjects.js';
import { connected, natsServer, testConfig } from '../helpers/nats.js';

t.setTimeout(240_000);

interface Ended { code: number | null; signal: NodeJS.Signals | null; stderr: string; firstLine: string }

/**
 * Runs `spade ARGS` with stdout into a reader that closes after `lines` lines (0: at once, before anything is read);
 * `closeStderr` closes stderr at once too (`2>&1 | true`). `afterClose` runs once the reader closed.
 */
function run(args: string[], o: { lines?: number; closeStderr?: boolean; afterClose?: () => Promise<void> } = {}): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [repoPath('runtime/spade.js'), ...args], { cwd: repoPath(), env: { ...process.env, SPADE_NATS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '', out = '';
    const close = (): void => {
      child.stdout.destroy();
      void o.afterClose?.();
    };
    if ((o.lines ?? 0) === 0) close();
    else child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.split('\n').length > o.lines! && !child.stdout.destroyed) close();
    });
    if (o.closeStderr) child.stderr.destroy();
    else child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code, signal) => resolve({ code, signal, stderr, firstLine: out.split('\n')[0] ?? '' }));
  });
}

const quiet = (t: Test, what: string, r: Ended, code = 0): void => {
  t.equal(r.code, code, `${what}: exit ${code} (got ${r.code ?? r.signal})`);
  t.notMatch(r.stderr, /EPIPE|Unhandled 'error'|\n\s+at /, `${what}: no stack trace on stderr${r.stderr ? `:\n${r.stderr}` : ''}`);
};

t.test('a closed output ends every command quietly', async (t) => {
  for (const args of [['--help'], ['start', '--help'], ['tail', '--help'], ['status', '--help'], ['env', '--help'], ['eval', '--help'], ['env', 'check', '--help']]) {
    quiet(t, `spade ${args.join(' ')} | true`, await run(args));
  }
  quiet(t, 'spade | true (usage, exit 2)', await run([]), 2);

  const games = readdirSync(repoPath('envs/library/games')).filter((f) => f.endsWith('.js')).map((f) => `envs/library/games/${f}`);
  const check = await run(['env', 'check', ...games.slice(0, 4)], { lines: 1 });
  quiet(t, 'spade env check FILE… | head -1', check);
  t.match(check.firstLine, /^ok\s+envs\/library\/games\//, 'the reader got its line');

  const server = await natsServer(t);
  const conn = await connected(t, await testConfig([server.url]));
  const designer = { promptTokens: packInts([1, 2]), tokens: packInts([3]), logprobs: packFloats([-0.5]), versions: packInts([0]), text: 'x', finishReason: 'stop' };
  const reject = (n: number): Promise<unknown> => {
    const body: EnvRejectedBody = { envId: `env-${n}`, jobId: `job-${n}`, iteration: n, code: 'oops', stage: 'parse', reason: 'SyntaxError', parents: [], designer };
    return conn.js.publish(SUBJECTS.envRejected, encode(EnvRejected, body), { msgID: `closed-output-${n}` });
  };
  await reject(0);
  // tail follows: it meets the closed pipe at its next message, as `spade tail … | head -1` does.
  const tail = await run(['tail', SUBJECT_WILDCARDS.env, '--since', '10m', '--nats', server.url], { lines: 1, afterClose: async () => void (await reject(1)) });
  quiet(t, 'spade tail … | head -1', tail);
  t.match(tail.firstLine, /env-0|env\.rejected/, `the reader got the stored message (${tail.firstLine})`);
  quiet(t, 'spade status | true', await run(['status', '--nats', server.url]));

  // A host whose stdout and stderr are closed (`spade start … 2>&1 | true`) drains and exits 0 by itself.
  const host = await run(['start', '--role', 'echo', '--nats', server.url], { closeStderr: true });
  t.equal(host.code, 0, `spade start … 2>&1 | true: drained, exit 0 (got ${host.code ?? host.signal})`);
});
