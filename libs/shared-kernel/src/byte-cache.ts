/**
 * A least-recently-used cache of immutable strings, bounded by their total size in bytes (UTF-16 code
 * units × 2), not by a number of entries: a 60 kB page and a 400-byte page do not weigh the same.
 * For content that can never go stale (rendered revisions, bodies): no TTL.
 */
export class ByteLruCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key); // most recently used goes last
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: string): void {
    const size = value.length * 2 + key.length * 2;
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.length * 2 + key.length * 2;
    }
    while (this.bytes + size > this.maxBytes) {
      const oldest = this.entries.entries().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value[0]);
      this.bytes -= oldest.value[1].length * 2 + oldest.value[0].length * 2;
    }
    this.entries.set(key, value);
    this.bytes += size;
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.bytes;
  }
}
