/** Every named ByteLruCache of the process (weakly held), for metrics: hits, misses, bytes. */
export const NAMED_CACHES = new Set<WeakRef<ByteLruCache>>();

/**
 * A least-recently-used cache of immutable bytes (a rendered response, already UTF-8 encoded), bounded
 * by their total size, not by a number of entries: a 60 kB page and a 400-byte page do not weigh the
 * same. For content that can never go stale (rendered revisions, bodies): no TTL.
 */
export class ByteLruCache {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  /** `name` lists the cache in the process's metrics (`quire_cache_*{cache=name}`). */
  constructor(
    private readonly maxBytes: number,
    readonly name = '',
  ) {
    if (name) NAMED_CACHES.add(new WeakRef(this));
  }

  get stats(): { hits: number; misses: number; bytes: number } {
    return { hits: this.hits, misses: this.misses, bytes: this.bytes };
  }

  private static weight(key: string, value: Uint8Array): number {
    return value.byteLength + key.length * 2;
  }

  get(key: string): Uint8Array | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key); // most recently used goes last
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: Uint8Array): void {
    const size = ByteLruCache.weight(key, value);
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= ByteLruCache.weight(key, previous);
    }
    while (this.bytes + size > this.maxBytes) {
      const oldest = this.entries.entries().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value[0]);
      this.bytes -= ByteLruCache.weight(oldest.value[0], oldest.value[1]);
    }
    this.entries.set(key, value);
    this.bytes += size;
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.bytes;
  }
}
