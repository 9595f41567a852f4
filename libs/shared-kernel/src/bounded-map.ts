/**
 * A Map that keeps at most `maxEntries`: setting a new key when full drops the oldest one first. For
 * in-process memos of immutable things (a parse per version, a tree per revision) that must stay bounded.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly maxEntries: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.maxEntries) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
