import { SharedWindows, WINDOW_MS, type LeaseAnswer, type LeaseStore } from './shared-windows';

/** The store as PostgreSQL keeps it (one row per key), answering after a tick like a round trip would. */
class MapStore implements LeaseStore {
  readonly rows = new Map<string, { windowStart: number; leased: number }>();
  calls = 0;
  async lease(key: string, now: number, chunk: number, limit: number): Promise<LeaseAnswer> {
    this.calls += 1;
    await new Promise((r) => setImmediate(r));
    let row = this.rows.get(key);
    if (!row || row.windowStart + WINDOW_MS <= now) this.rows.set(key, (row = { windowStart: now, leased: 0 }));
    const granted = Math.min(chunk, Math.max(0, limit - row.leased));
    row.leased += granted;
    return { windowStart: row.windowStart, leased: row.leased, granted };
  }
}

describe('SharedWindows: one rate limit across processes', () => {
  it('one process: exactly the limit a window, the remaining count exact, one lease per chunk; the next window starts afresh', async () => {
    const store = new MapStore();
    const w = new SharedWindows(store, 600);
    expect(w.chunk).toBe(12);
    const hits = [];
    for (let i = 0; i < 700; i++) hits.push(await w.hit('t:a', 1_000));
    expect(hits.filter((h) => h.allowed)).toHaveLength(600);
    expect(hits.slice(0, 3).map((h) => h.remaining)).toEqual([599, 598, 597]);
    expect(hits[599]).toEqual({ allowed: true, remaining: 0, resetAt: 61_000 });
    expect(hits[600]).toEqual({ allowed: false, remaining: 0, resetAt: 61_000 });
    expect(store.calls).toBe(51); // 50 leases of 12, then one that got nothing; refusals after it cost nothing
    expect((await w.hit('t:a', 61_000)).allowed).toBe(true);
    expect((await w.hit('t:b', 1_000)).remaining).toBe(599);
  });

  it('two processes, requests interleaved and concurrent: never more than the limit together, at most a lease per extra process less', async () => {
    const store = new MapStore();
    const a = new SharedWindows(store, 600);
    const b = new SharedWindows(store, 600);
    const results = await Promise.all(Array.from({ length: 1400 }, (_, i) => (i % 3 === 0 ? a : b).hit('t:x', 5_000)));
    const allowed = results.filter((r) => r.allowed).length;
    expect(allowed).toBeLessThanOrEqual(600);
    expect(allowed).toBeGreaterThanOrEqual(600 - a.chunk);
    expect(store.rows.get('t:x')!.leased).toBe(600);
  });

  it('concurrent requests of one key share one lease', async () => {
    const store = new MapStore();
    const w = new SharedWindows(store, 6000);
    const results = await Promise.all(Array.from({ length: 100 }, () => w.hit('t:y', 0)));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(store.calls).toBe(1);
  });

  it('a store that fails makes the hit fail (the guard then counts alone)', async () => {
    const w = new SharedWindows({ lease: () => Promise.reject(new Error('down')) }, 10);
    await expect(w.hit('t:z', 0)).rejects.toThrow('down');
    expect(SharedWindows.retryAfter(60_000, 0)).toBe(60);
    expect(SharedWindows.retryAfter(100, 99)).toBe(1);
  });
});
