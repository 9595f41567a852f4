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

  /** Adds one to the key's count and returns it. */
  hit(key: string, now: number): number {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size >= SWEEP_AT) for (const [k, v] of this.windows) if (now - v.start >= this.windowMs) this.windows.delete(k);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count;
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
