// CPU seconds of a process and its descendants, read from Linux's /proc: user + system time of the process (its
// threads included: Piscina's sandbox workers and onnxruntime's pools), of the children it has reaped (cutime,
// cstime: an embedded nats-server after it stopped), and of the descendants still alive. A poller keeps the last
// reading, so the figure of a process that just exited is the one taken at most one interval before.
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerSec: number | null = null;
const clockTicks = (): number => {
  if (ticksPerSec === null) {
    try {
      ticksPerSec = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSec = 100;
    }
  }
  return ticksPerSec;
};

/** utime + stime (+ cutime + cstime with `reaped`) of one pid in clock ticks; null once it is gone. */
function ticksOf(pid: number, reaped: boolean): number | null {
  try {
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** CPU seconds of `pid`'s tree now; null when `pid` is gone or /proc cannot be read (not Linux). */
export function treeCpuSeconds(pid: number): number | null {
  const own = ticksOf(pid, true);
  if (own === null) return null;
  let ticks = own;
  const stack = childrenOf(pid);
  while (stack.length > 0) {
    const c = stack.pop()!;
    ticks += ticksOf(c, false) ?? 0;
    stack.push(...childrenOf(c));
  }
  return ticks / clockTicks();
}

/** The process's peak resident memory so far (VmHWM) in MiB; null when it is gone or /proc cannot be read. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Polls `pid`'s tree every `intervalMs`; `stop()` returns the last CPU reading and the highest peak RSS of `pid`
 * itself seen (null where none was ever taken).
 */
export function pollTreeCpu(pid: number, intervalMs = 500): { stop: () => { cpuSec: number | null; peakRssMb: number | null } } {
  let last: number | null = treeCpuSeconds(pid);
  let peak: number | null = peakRssMb(pid);
  const timer = setInterval(() => {
    const now = treeCpuSeconds(pid);
    if (now !== null) last = now;
    const rss = peakRssMb(pid);
    if (rss !== null) peak = Math.max(peak ?? 0, rss);
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return { cpuSec: last, peakRssMb: peak };
    },
  };
}
