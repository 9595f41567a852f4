import { generateKeyBetween } from 'fractional-indexing';
import { ConflictError, InvalidInputError } from '@app/shared-kernel';

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface ContentPosition {
  before?: ContentPointer;
  after?: ContentPointer;
}

/** A space or collection among the children of one parent, ordered by `position`. */
export interface Sibling {
  kind: 'space' | 'collection';
  id: string;
  position: string;
}

function pointerKey(p: ContentPointer): string {
  return p.type === 'space' ? `space:${p.space}` : `collection:${p.collection}`;
}

function siblingKey(s: { kind: string; id: string }): string {
  return `${s.kind}:${s.id}`;
}

/** Compares fractional-index keys the way PostgreSQL's "C" collation does (byte order), then ids. */
export function compareSiblings(a: Sibling, b: Sibling): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The key that puts an item at the end of `siblings`. */
export function positionAtEnd(siblings: Sibling[]): string {
  const sorted = [...siblings].sort(compareSiblings);
  return generateKeyBetween(sorted.length ? sorted[sorted.length - 1].position : null, null);
}

/** The key right after `item` among `siblings` (for duplicates). */
export function positionAfter(siblings: Sibling[], item: Sibling): string {
  const sorted = [...siblings].sort(compareSiblings);
  const i = sorted.findIndex((s) => siblingKey(s) === siblingKey(item));
  if (i < 0) return positionAtEnd(siblings);
  const next = sorted[i + 1];
  return generateKeyBetween(sorted[i].position, next && next.position !== sorted[i].position ? next.position : null);
}

/**
 * Computes the new position key of `item` moved into the parent whose children are `siblings`.
 * `sameParent` says the item already lives there: then a move that changes nothing is a conflict.
 * Spec part 1 §7: invalid position → 400, nothing would change → 409.
 */
export function placeAmong(item: Sibling, siblings: Sibling[], position: ContentPosition | undefined, sameParent: boolean): string {
  const others = siblings.filter((s) => siblingKey(s) !== siblingKey(item)).sort(compareSiblings);
  const indexOf = (p: ContentPointer): number => {
    if (pointerKey(p) === siblingKey(item)) throw new InvalidInputError('Invalid position: an item cannot be placed next to itself');
    const i = others.findIndex((s) => siblingKey(s) === pointerKey(p));
    if (i < 0)
      throw new InvalidInputError(
        `Invalid position: ${p.type} "${p.type === 'space' ? p.space : p.collection}" is not in the target parent`,
      );
    return i;
  };
  let target: number;
  if (position?.before && position.after) {
    const b = indexOf(position.before);
    const a = indexOf(position.after);
    if (b !== a + 1) throw new InvalidInputError('Invalid position: "after" and "before" must be adjacent items');
    target = b;
  } else if (position?.before) {
    target = indexOf(position.before);
  } else if (position?.after) {
    target = indexOf(position.after) + 1;
  } else {
    target = others.length;
  }
  if (sameParent) {
    const current = others.filter((s) => compareSiblings(s, item) < 0).length;
    if (current === target) throw new ConflictError('The move would not change anything');
  }
  const prev: string | null = others[target - 1]?.position ?? null;
  let next: string | null = others[target]?.position ?? null;
  if (prev !== null && next !== null && prev >= next) next = null;
  return generateKeyBetween(prev, next);
}
