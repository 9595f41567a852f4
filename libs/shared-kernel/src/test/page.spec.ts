import { decodeCursor, encodeCursor, pageRequest, toPage } from '../page';
import { InvalidInputError } from '../domain-error';
import { roleAtLeast, strongestRole } from '../role';

describe('cursors', () => {
  it('round-trips a keyset tuple and stays opaque', () => {
    const c = encodeCursor(['2026-01-01T00:00:00.000Z', 'abc']);
    expect(c).not.toContain('abc');
    expect(decodeCursor(c)).toEqual(['2026-01-01T00:00:00.000Z', 'abc']);
  });

  it.each([
    'not-base64!!',
    Buffer.from('{"v":2,"k":["a"]}').toString('base64url'),
    Buffer.from('{"v":1,"k":[]}').toString('base64url'),
    Buffer.from('[1]').toString('base64url'),
  ])('rejects a forged or foreign cursor %s', (page) => {
    expect(() => decodeCursor(page)).toThrow(InvalidInputError);
  });
});

describe('pageRequest', () => {
  it('defaults to 100 and accepts 0 and 1000', () => {
    expect(pageRequest(undefined, undefined).limit).toBe(100);
    expect(pageRequest(undefined, 0).limit).toBe(0);
    expect(pageRequest(undefined, 1000).limit).toBe(1000);
  });
  it('refuses 1001, negatives and fractions', () => {
    for (const l of [1001, -1, 2.5]) expect(() => pageRequest(undefined, l)).toThrow(InvalidInputError);
  });
});

describe('toPage', () => {
  const key = (n: number) => [n];
  it('sets next only when a row beyond the limit exists', () => {
    const full = toPage([1, 2, 3], { limit: 2 }, 3, key);
    expect(full.items).toEqual([1, 2]);
    expect(decodeCursor(full.next!)).toEqual([2]);
    const last = toPage([3], { limit: 2 }, 3, key);
    expect(last.next).toBeUndefined();
  });
  it('limit 0 returns no items and no next, with the total count', () => {
    expect(toPage([1], { limit: 0 }, 7, key)).toEqual({ items: [], count: 7, next: undefined });
  });
});

describe('roles', () => {
  it('orders admin > create > review > edit > comment > read', () => {
    expect(roleAtLeast('create', 'review')).toBe(true);
    expect(roleAtLeast('review', 'create')).toBe(false);
    expect(roleAtLeast('edit', 'comment')).toBe(true);
    expect(roleAtLeast('read', 'comment')).toBe(false);
    expect(roleAtLeast(null, 'read')).toBe(false);
  });
  it('strongestRole picks the wider role', () => {
    expect(strongestRole('read', 'edit')).toBe('edit');
    expect(strongestRole('admin', null)).toBe('admin');
    expect(strongestRole(null, null)).toBeNull();
  });
});
