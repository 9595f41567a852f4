/**
 * A small in-process cache whose entries live `ttlMs` (by the caller's clock) and whose size is bounded
 * (the oldest entry goes first). ttlMs 0 disables it. Used to keep per-request lookups off the database.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: K, nowMs: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  has(key: K, nowMs: number): boolean {
    return this.get(key, nowMs) !== undefined;
  }

  set(key: K, value: V, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: nowMs + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
