import { InvalidInputError } from './domain-error';

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 100;

/** A request for one page of a keyset-ordered list. `after` is the decoded cursor, if any. */
export interface PageRequest {
  limit: number;
  after?: CursorKey;
}

/** The sort-key values of the last row of a page (e.g. [createdAt, id]). */
export type CursorKey = (string | number)[];

export interface Page<T> {
  items: T[];
  /** Total number of items in the whole list, not just this page. */
  count: number;
  /** Cursor of the next page; absent on the last page. */
  next?: string;
}

/** Cursors are opaque to clients: base64url of the JSON keyset tuple, with a version tag. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify({ v: 1, k: key }), 'utf8').toString('base64url');
}

export function decodeCursor(page: string): CursorKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInputError('Invalid page cursor');
  }
  const p = parsed as { v?: unknown; k?: unknown };
  if (
    !p ||
    p.v !== 1 ||
    !Array.isArray(p.k) ||
    p.k.length === 0 ||
    !p.k.every((x) => typeof x === 'string' || typeof x === 'number')
  ) {
    throw new InvalidInputError('Invalid page cursor');
  }
  return p.k as CursorKey;
}

/** Builds a PageRequest from the raw `page` and `limit` query values (already type-checked). */
export function pageRequest(page: string | undefined, limit: number | undefined): PageRequest {
  const l = limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(l) || l < 0 || l > MAX_PAGE_LIMIT) {
    throw new InvalidInputError(`limit must be an integer from 0 to ${MAX_PAGE_LIMIT}`);
  }
  return { limit: l, after: page ? decodeCursor(page) : undefined };
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that a next page exists.
 * `keyOf` gives the sort key of a row, which becomes the cursor.
 */
export function toPage<T>(rows: T[], request: PageRequest, count: number, keyOf: (row: T) => CursorKey): Page<T> {
  const items = rows.slice(0, request.limit);
  const hasMore = rows.length > request.limit && items.length > 0;
  return { items, count, next: hasMore ? encodeCursor(keyOf(items[items.length - 1])) : undefined };
}

export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { items: page.items.map(fn), count: page.count, next: page.next };
}
