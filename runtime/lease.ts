// One instance per process, leased: the first lease opens it, later leases share it, the last release closes it.
// An open that fails is forgotten, so the next lease tries again.

export interface Lease<T> {
  readonly value: T;
  /** Gives the lease back (once; later calls do nothing); the instance closes when no lease is left. */
  release(): Promise<void>;
}

interface Entry<T> {
  key: string;
  value: Promise<T>;
  leases: number;
}

export class SharedInstance<T> {
  private current: Entry<T> | null = null;

  constructor(private readonly close: (value: T) => Promise<void>) {}

  /** Leases already handed out and not released. */
  get leases(): number {
    return this.current?.leases ?? 0;
  }

  /**
   * Leases the open instance, or opens one with `open`. `key` names what it was opened with: a lease asking with
   * another key gets the open instance all the same, and `onOtherKey` is told.
   */
  async lease(key: string, open: () => T | Promise<T>, onOtherKey: () => void = () => undefined): Promise<Lease<T>> {
    if (this.current === null) {
      const entry: Entry<T> = { key, leases: 0, value: (async () => open())() };
      this.current = entry;
      entry.value.catch(() => {
        if (this.current === entry) this.current = null;
      });
    } else if (this.current.key !== key) onOtherKey();
    const entry = this.current;
    // Counted before the open settles: a lease released meanwhile must not close what this one is about to get.
    entry.leases++;
    let value: T;
    try {
      value = await entry.value;
    } catch (err) {
      entry.leases--;
      throw err;
    }
    let released = false;
    return {
      value,
      release: async () => {
        if (released) return;
        released = true;
        if (--entry.leases > 0) return;
        if (this.current === entry) this.current = null;
        await this.close(value);
      },
    };
  }
}
