import { FixedWindows } from '../fixed-windows';

describe('fixed windows (rate limits in memory)', () => {
  it('counts per key within a window, starts again after it, and says when it ends', () => {
    const w = new FixedWindows(60 * 60_000);
    expect([w.hit('a', 0), w.hit('a', 1000), w.hit('b', 1000)]).toEqual([1, 2, 1]);
    expect(w.count('a', 3_599_999)).toBe(2);
    expect(w.retryAfter('a', 3_000_000)).toBe(600);
    expect(w.count('a', 3_600_000)).toBe(0);
    expect(w.hit('a', 3_600_000)).toBe(1);
  });

  it('stays bounded when many keys share one long window: the oldest are forgotten, the newest kept', () => {
    const w = new FixedWindows(60 * 60_000);
    for (let i = 0; i < 120_000; i++) w.hit(`client-${i}`, 1000);
    expect((w as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThan(50_000);
    expect(w.count('client-119999', 2000)).toBe(1);
    expect(w.count('client-0', 2000)).toBe(0);
  });
});
