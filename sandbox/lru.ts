// A small least-recently-used map: Map keeps insertion order, so re-inserting on access makes the first key the oldest.
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number, private readonly onEvict?: (value: V, key: K) => void) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      if (old !== value) this.onEvict?.(old, key);
    }
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const [k, v] = this.map.entries().next().value as [K, V];
      this.map.delete(k);
      this.onEvict?.(v, k);
    }
  }

  /** Removes without calling onEvict (the caller owns the value now). */
  take(key: K): V | undefined {
    const v = this.map.get(key);
    this.map.delete(key);
    return v;
  }

  /** Empties the map; calls onEvict only when `evict` is true. */
  clear(evict: boolean): void {
    if (evict && this.onEvict) for (const [k, v] of this.map) this.onEvict(v, k);
    this.map.clear();
  }
}
