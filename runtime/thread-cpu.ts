// CPU time of the calling thread, read from /proc/thread-self/stat (Linux; 10 ms ticks). The time limit is a CPU
// limit: on a shared, overloaded machine a call may be descheduled for longer than its whole budget.
import { openSync, readSync } from 'node:fs';

const TICK_MS = 10;

export class ThreadCpu {
  private fd: number | null | undefined;
  private readonly buf = Buffer.alloc(1024);

  /** Milliseconds of CPU this thread has used, or NaN where /proc is unavailable. */
  ms(): number {
    if (this.fd === undefined) {
      try {
        this.fd = openSync('/proc/thread-self/stat', 'r');
      } catch {
        this.fd = null;
      }
    }
    if (this.fd === null) return Number.NaN;
    try {
      const n = readSync(this.fd, this.buf, 0, this.buf.length, 0);
      const s = this.buf.toString('latin1', 0, n);
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) * TICK_MS;
    } catch {
      return Number.NaN;
    }
  }
}
