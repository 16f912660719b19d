// `npm run bench:learners` stopped by SIGINT or SIGTERM stops its children: the nats-server (its own process group,
// so a terminal's Ctrl-C never reaches it) and the learner host it had started. They used to stay behind, since Node
// exits on a signal without running 'exit' handlers. Real processes; Linux (children found through /proc).
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { repoPath } from '../../../runtime/paths.js';

t.setTimeout(120_000);

/** The children of `pid` with their command lines. */
function childrenOf(pid: number): Array<{ pid: number; cmd: string }> {
  const out: Array<{ pid: number; cmd: string }> = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(d), cmd: readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(\S+\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is dead, only not yet reaped
  } catch {
    return false;
  }
};
const tick = () => new Promise((r) => setTimeout(r, 100));

t.test('bench:learners stops its children on SIGINT and SIGTERM', { skip: process.platform !== 'linux' && 'needs /proc' }, async (t) => {
  for (const [sig, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    const bench = spawn(process.execPath, [repoPath('dist/scripts/bench-learners.js')], {
      env: { ...process.env, BENCH_LEARNERS_SKIP_REDUCE: '1', BENCH_LEARNERS_BATCHES: '4' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    bench.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => bench.once('exit', (c) => r(c)));
    let kids: Array<{ pid: number; cmd: string }> = [];
    const deadline = Date.now() + 60_000;
    while (!(kids.some((k) => k.cmd.includes('nats-server')) && kids.some((k) => k.cmd.includes('bench-learners-host'))) && Date.now() < deadline && bench.exitCode === null) {
      await tick();
      kids = childrenOf(bench.pid!);
    }
    t.teardown(() => void kids.forEach((k) => alive(k.pid) && process.kill(k.pid, 'SIGKILL'))); // a failed run leaves none either
    t.ok(kids.length >= 2, `${sig}: the benchmark runs a nats-server and a learner host (${kids.map((k) => k.pid).join(', ')})`);
    bench.kill(sig);
    t.equal(await exited, code, `${sig}: it exits ${code}`);
    t.match(stderr, new RegExp(`${sig}: hosts and nats-servers killed`), `${sig}: saying so`);
    const gone = Date.now() + 10_000;
    while (kids.some((k) => alive(k.pid)) && Date.now() < gone) await tick();
    t.same(kids.filter((k) => alive(k.pid)).map((k) => k.cmd), [], `${sig}: no child left running`);
  }
});
