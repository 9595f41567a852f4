/** How long a window lasts. */
export const WINDOW_MS = 60_000;

/** A key's window as the shared store answers a lease: when it began, how much of the limit is leased, what this lease got. */
export interface LeaseAnswer {
  windowStart: number;
  leased: number;
  granted: number;
}

/** Where the processes lease parts of each key's limit (PostgreSQL in the app; a map in unit tests). */
export interface LeaseStore {
  lease(key: string, now: number, chunk: number, limit: number): Promise<LeaseAnswer>;
}

interface Local {
  windowEnd: number;
  /** Leased to this process and not used yet. */
  left: number;
  /** The whole key's leases in this window, as of this process's last lease. */
  leased: number;
  /** The store granted nothing: the window's limit is all leased, nothing more until it ends. */
  exhausted: boolean;
}

export interface Hit {
  allowed: boolean;
  /** What the caller may still do in this window, as this process knows it. */
  remaining: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

/**
 * A rate limit that holds across processes without a database round trip per request: each process leases
 * `chunk` requests of a key's limit at a time from the shared store and spends them locally. The store never
 * grants more than the limit in a window, so all processes together admit at most `limit` requests a window
 * (no overshoot); what a process leased and did not spend is lost to the others, so with N processes a key
 * may be refused up to (N − 1) × chunk requests early. Concurrent requests of one key share one lease.
 */
export class SharedWindows {
  private readonly local = new Map<string, Local>();
  private readonly leasing = new Map<string, Promise<Local>>();

  constructor(
    private readonly store: LeaseStore,
    private readonly limit: number,
    readonly chunk: number = Math.max(1, Math.floor(limit / 50)),
  ) {}

  async hit(key: string, now: number): Promise<Hit> {
    for (;;) {
      let l = this.local.get(key);
      if (l && now >= l.windowEnd) {
        this.local.delete(key);
        l = undefined;
      }
      if (l && l.left > 0) {
        l.left -= 1;
        return { allowed: true, remaining: this.limit - l.leased + l.left, resetAt: l.windowEnd };
      }
      if (l?.exhausted) return { allowed: false, remaining: 0, resetAt: l.windowEnd };
      // Then spend from the new lease (requests of this key that waited for it too may spend it first: lease again).
      await this.refill(key, now);
    }
  }

  /** Whole seconds until a window ending at `resetAt` ends (at least 1). */
  static retryAfter(resetAt: number, now: number): number {
    return Math.max(1, Math.ceil((resetAt - now) / 1000));
  }

  private refill(key: string, now: number): Promise<Local> {
    let pending = this.leasing.get(key);
    if (!pending) {
      pending = this.store
        .lease(key, now, this.chunk, this.limit)
        .then((a) => {
          const l: Local = { windowEnd: a.windowStart + WINDOW_MS, left: a.granted, leased: a.leased, exhausted: a.granted === 0 };
          if (this.local.size >= 50_000) for (const [k, v] of this.local) if (now >= v.windowEnd) this.local.delete(k);
          this.local.set(key, l);
          return l;
        })
        .finally(() => this.leasing.delete(key));
      this.leasing.set(key, pending);
    }
    return pending;
  }
}
