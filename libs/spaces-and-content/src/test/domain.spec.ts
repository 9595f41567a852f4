import { ConflictError, DAY_MS, InvalidInputError } from '@app/shared-kernel';
import { CollectionTree } from '../domain/collection';
import { compareSiblings, placeAmong, positionAfter, positionAtEnd, Sibling } from '../domain/position';
import { duplicateTitle, isGone, isRestorable, purgeCutoff, Space, ZERO_COUNTERS } from '../domain/space';

function space(deletedAt: string | null): Space {
  const t = new Date('2026-01-01T00:00:00Z');
  return {
    id: 's1',
    organizationId: 'o1',
    title: 'T',
    emoji: '',
    visibility: 'private',
    editMode: 'live',
    mergeRules: { type: 'inherit' },
    language: null,
    parentId: null,
    defaultLevel: 'inherit',
    position: 'a0',
    revision: 'r1',
    counters: ZERO_COUNTERS,
    createdAt: t,
    updatedAt: t,
    deletedAt: deletedAt ? new Date(deletedAt) : null,
  };
}

describe('the 7-day window of deleted spaces', () => {
  const deletedAt = '2026-02-01T12:00:00.000Z';
  const at = (ms: number) => new Date(new Date(deletedAt).getTime() + ms);

  it('is restorable until 1 ms before 7 days, and gone at exactly 7 days', () => {
    expect(isRestorable(space(deletedAt), at(0))).toBe(true);
    expect(isRestorable(space(deletedAt), at(7 * DAY_MS - 1))).toBe(true);
    expect(isGone(space(deletedAt), at(7 * DAY_MS - 1))).toBe(false);
    expect(isRestorable(space(deletedAt), at(7 * DAY_MS))).toBe(false);
    expect(isGone(space(deletedAt), at(7 * DAY_MS))).toBe(true);
  });

  it('a live space is neither restorable nor gone', () => {
    expect(isRestorable(space(null), at(0))).toBe(false);
    expect(isGone(space(null), at(100 * DAY_MS))).toBe(false);
  });

  it('purges what was deleted at or before now - 7 days', () => {
    expect(purgeCutoff(at(7 * DAY_MS)).toISOString()).toBe(deletedAt);
  });
});

describe('positions among siblings', () => {
  const items: Sibling[] = [];
  let prev: string | null = null;
  for (const id of ['a', 'b', 'c']) {
    const s: Sibling = { kind: 'space', id, position: positionAtEnd(items) };
    items.push(s);
    prev = s.position;
  }
  const [a, b, c] = items;
  const order = (moved: Sibling, key: string) =>
    [...items.filter((s) => s.id !== moved.id), { ...moved, position: key }]
      .sort(compareSiblings)
      .map((s) => s.id)
      .join('');

  it('appends at the end by default', () => {
    expect(prev).not.toBeNull();
    expect(order(a, placeAmong(a, items, undefined, true))).toBe('bca');
  });

  it('places before and after a sibling', () => {
    expect(order(c, placeAmong(c, items, { before: { type: 'space', space: 'a' } }, true))).toBe('cab');
    expect(order(a, placeAmong(a, items, { after: { type: 'space', space: 'b' } }, true))).toBe('bac');
    expect(order(c, placeAmong(c, items, { after: { type: 'space', space: 'a' }, before: { type: 'space', space: 'b' } }, true))).toBe(
      'acb',
    );
  });

  it('refuses a move that changes nothing (409)', () => {
    expect(() => placeAmong(c, items, undefined, true)).toThrow(ConflictError);
    expect(() => placeAmong(a, items, { before: { type: 'space', space: 'b' } }, true)).toThrow(ConflictError);
    expect(() => placeAmong(b, items, { after: { type: 'space', space: 'a' } }, true)).toThrow(ConflictError);
  });

  it('the same position in another parent is a change', () => {
    const other: Sibling = { kind: 'space', id: 'x', position: 'a0' };
    expect(typeof placeAmong(other, [], undefined, false)).toBe('string');
  });

  it('refuses unknown, self and non-adjacent pointers (400)', () => {
    expect(() => placeAmong(a, items, { before: { type: 'space', space: 'zzz' } }, true)).toThrow(InvalidInputError);
    expect(() => placeAmong(a, items, { before: { type: 'collection', collection: 'b' } }, true)).toThrow(InvalidInputError);
    expect(() => placeAmong(a, items, { after: { type: 'space', space: 'a' } }, true)).toThrow(InvalidInputError);
    expect(() => placeAmong(a, items, { after: { type: 'space', space: 'c' }, before: { type: 'space', space: 'b' } }, true)).toThrow(
      InvalidInputError,
    );
  });

  it('puts a duplicate right after its original', () => {
    const key = positionAfter(items, a);
    expect(key > a.position && key < b.position).toBe(true);
  });
});

describe('CollectionTree', () => {
  const tree = new CollectionTree([
    { id: 'root', parentId: null, defaultLevel: 'edit' },
    { id: 'mid', parentId: 'root', defaultLevel: 'inherit' },
    { id: 'leaf', parentId: 'mid', defaultLevel: null },
    { id: 'other', parentId: null, defaultLevel: 'inherit' },
  ]);
  it('walks levels from a collection up to the root', () => {
    expect(tree.levelsFrom('leaf')).toEqual([null, 'inherit', 'edit']);
    expect(tree.levelsFrom(null)).toEqual([]);
  });
  it('lists a subtree', () => {
    expect(tree.subtree('root').sort()).toEqual(['leaf', 'mid', 'root']);
    expect(tree.subtree('other')).toEqual(['other']);
  });
});

describe('duplicateTitle', () => {
  it('keeps within 50 characters', () => {
    expect(duplicateTitle('Guide')).toBe('Guide (copy)');
    expect(duplicateTitle('x'.repeat(50))).toHaveLength(50);
  });
});
