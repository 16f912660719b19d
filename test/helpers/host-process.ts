// Test helper: runs `node runtime/start.js` as a separate OS process (a host) and watches its stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import type { Teardown } from './nats.js';

export interface HostProcess {
  child: ChildProcess;
  pid: number;
  /** Everything the host wrote to stderr so far. */
  output(): string;
  /** Resolves when a stderr line matches. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnHost(t: Teardown, args: string[], env: NodeJS.ProcessEnv = {}, opts: { ownProcessGroup?: boolean } = {}): HostProcess {
  const child = spawn(process.execPath, [repoPath('runtime/start.js'), ...args], {
    cwd: repoPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, like a program started from a terminal (Ctrl-C signals the whole group).
    detached: opts.ownProcessGroup === true,
  });
  let out = '';
  const waiters: Array<() => void> = [];
  // SPADE_TEST_HOST_LOGS=DIR keeps each host's output in DIR/<pid>.log (to debug a hung or failed test).
  const logDir = process.env.SPADE_TEST_HOST_LOGS;
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (logDir) appendFileSync(join(logDir, `${child.pid}.log`), chunk);
    for (const w of waiters.splice(0)) w();
  };
  child.stderr!.on('data', onData);
  child.stdout!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const w of waiters.splice(0)) w();
      resolve({ code, signal });
    }),
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  });
  return {
    child,
    pid: child.pid!,
    output: () => out,
    exited,
    waitFor(re, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re} in host output:\n${out}`)), timeoutMs);
        const check = () => {
          const m = re.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            reject(new Error(`host exited (${child.exitCode ?? child.signalCode}) before ${re}; output:\n${out}`));
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
