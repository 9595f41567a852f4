import { Semaphore } from '../semaphore';
import { ByteLruCache } from '../byte-cache';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the rest in arrival order', async () => {
    const s = new Semaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((g, i) => s.run(async () => (started.push(i), await g.promise, i)));
    await tick();
    expect(started).toEqual([0, 1]);
    expect(s.load).toEqual({ active: 2, waiting: 2 });
    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(s.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot when a task fails', async () => {
    const s = new Semaphore(1);
    await expect(s.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await s.run(async () => 'next')).toBe('next');
    expect(s.load).toEqual({ active: 0, waiting: 0 });
  });

  it('does not limit with 0', async () => {
    const s = new Semaphore(0);
    const gate = deferred();
    const runs = [1, 2, 3].map(() => s.run(() => gate.promise));
    await tick();
    expect(s.load).toEqual({ active: 3, waiting: 0 });
    gate.resolve();
    await Promise.all(runs);
    expect(s.load.active).toBe(0);
  });
});

describe('ByteLruCache', () => {
  const bytes = (n: number, c = 'x') => new TextEncoder().encode(c.repeat(n));
  it('is bounded by bytes, evicts the least recently used first, and skips values larger than the bound', () => {
    const cache = new ByteLruCache(100);
    cache.set('a', bytes(40)); // 42 with the key
    cache.set('b', bytes(40, 'y')); // 42
    expect(cache.size).toBe(84);
    expect(cache.get('a')).toEqual(bytes(40)); // a is now the most recently used
    cache.set('c', bytes(20, 'z')); // 22: over 100, so b (least recently used) goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(bytes(40));
    expect(cache.get('c')).toEqual(bytes(20, 'z'));
    expect(cache.size).toBe(64);
    cache.set('huge', bytes(200));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('a', bytes(10));
    expect(cache.size).toBe(34);
  });
});
