// The host's memory budget: while the process's resident memory is over a soft fraction of host.memoryBudgetMb the
// host stops pulling new jobs (they stay pending in their consumers for other hosts, or for later) and lets the jobs
// it holds finish; it pulls again once memory is back under a lower watermark. Pure hysteresis logic plus a driver.

export interface MemoryBudget {
  /** The budget in bytes; 0 = no budget (never sheds). */
  budgetBytes: number;
  /** Stop pulling at or over this fraction of the budget. */
  shedAt: number;
  /** Pull again below this fraction of the budget (< shedAt, so the host does not flap around one value). */
  resumeAt: number;
}

export interface GateState {
  shedding: boolean;
  rssBytes: number;
}

/** One reading of resident memory in; the next state out. */
export function nextGateState(state: GateState, rssBytes: number, b: MemoryBudget): GateState {
  if (b.budgetBytes <= 0) return { shedding: false, rssBytes };
  if (!state.shedding && rssBytes >= b.shedAt * b.budgetBytes) return { shedding: true, rssBytes };
  if (state.shedding && rssBytes < b.resumeAt * b.budgetBytes) return { shedding: false, rssBytes };
  return { shedding: state.shedding, rssBytes };
}

export interface MemoryGateOptions extends MemoryBudget {
  /** How often resident memory is read. */
  everyMs: number;
  /** Where a reading comes from: process.memoryUsage.rss by default (tests hand in their own numbers). */
  readRss?: () => number;
  /** Told on every change, with the reading that caused it. */
  onChange: (state: GateState) => void;
}

/** Reads resident memory every `everyMs` and keeps the gate state; `opened()` waits while it sheds. */
export class MemoryGate {
  private state: GateState = { shedding: false, rssBytes: 0 };
  private timer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  private readonly read: () => number;

  constructor(private readonly o: MemoryGateOptions) {
    this.read = o.readRss ?? (() => process.memoryUsage.rss());
  }

  get shedding(): boolean {
    return this.state.shedding;
  }

  get rssBytes(): number {
    return this.state.rssBytes;
  }

  /** Takes a first reading at once, then one every `everyMs`. */
  start(): void {
    this.check();
    this.timer = setInterval(() => this.check(), this.o.everyMs);
    this.timer.unref();
  }

  /** Reads resident memory now and moves the gate. */
  check(): GateState {
    const prev = this.state;
    this.state = nextGateState(prev, this.read(), this.o);
    if (this.state.shedding !== prev.shedding) {
      this.o.onChange(this.state);
      if (!this.state.shedding) for (const w of this.waiters.splice(0)) w();
    }
    return this.state;
  }

  /** Resolves when the gate is open (at once when not shedding), or when the gate stops. */
  opened(): Promise<void> {
    return this.state.shedding ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  /** Stops reading; whoever waits in opened() goes on (the host is draining then). */
  stop(): void {
    clearInterval(this.timer);
    for (const w of this.waiters.splice(0)) w();
  }
}
