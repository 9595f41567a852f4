const SWEEP_AT = 50_000;

/** Counters per key in fixed windows (one minute unless told), in process memory (rate limits). */
export class FixedWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly windowMs = 60_000) {}

  /** The key's count in the current window (0 when it has none). */
  count(key: string, now: number): number {
    const w = this.windows.get(key);
    return w && now - w.start < this.windowMs ? w.count : 0;
  }

  /** Adds `by` (one unless said) to the key's count and returns it. */
  hit(key: string, now: number, by = 1): number {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += by;
    return w.count;
  }

  /** Takes one back from the key's count in the current window (an attempt counted ahead that turned out fine). */
  undo(key: string, now: number): void {
    const w = this.windows.get(key);
    if (w && now - w.start < this.windowMs && w.count > 0) w.count -= 1;
  }

  /**
   * Ended windows go; when that leaves too many keys (many clients in one long window), the oldest go too,
   * down to three quarters: memory stays bounded, and a forgotten key only starts its count again.
   */
  private sweep(now: number): void {
    for (const [k, v] of this.windows) if (now - v.start >= this.windowMs) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < (SWEEP_AT * 3) / 4) break;
      this.windows.delete(k);
    }
  }

  /** When the key's current window ends (ms since the epoch). */
  resetAt(key: string, now: number): number {
    return (this.windows.get(key)?.start ?? now) + this.windowMs;
  }

  /** Whole seconds until the key's window ends (at least 1). */
  retryAfter(key: string, now: number): number {
    const w = this.windows.get(key);
    return Math.max(1, Math.ceil(((w?.start ?? now) + this.windowMs - now) / 1000));
  }
}
