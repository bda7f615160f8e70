// A tiny bounded LRU on top of Map's insertion order: used to cache parsed keys and verified
// certificates so hot verify paths skip repeated setup work without growing without bound.
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private newest: K | undefined;
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    // Re-reading the most recent key (the common hot loop) needs no reordering.
    if (v !== undefined && key !== this.newest) {
      this.newest = key;
      // Refresh recency.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    if (this.map.has(key)) this.map.delete(key);
    else if (this.map.size >= this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
    this.newest = key;
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
  }
}
