// A counting semaphore: bounds concurrent handlers per actor without polling.
export class Semaphore {
  private waiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private used = 0;
  constructor(readonly size: number) {}

  get inUse(): number {
    return this.used;
  }

  acquire(): Promise<void> {
    if (this.used < this.size) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(() => (this.used++, resolve())));
  }

  release(): void {
    this.used--;
    const next = this.waiters.shift();
    if (next) next();
    else if (this.used === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when no permit is held. */
  idle(): Promise<void> {
    return this.used === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
