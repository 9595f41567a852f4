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
    p.k.length > 8 ||
    !p.k.every((x) => (typeof x === 'string' && saneCursorText(x)) || (typeof x === 'number' && Number.isFinite(x)))
  ) {
    throw new InvalidInputError('Invalid page cursor');
  }
  return p.k as CursorKey;
}

function saneCursorText(s: string): boolean {
  return s.length <= 1024 && !s.includes('\u0000') && (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** What one member of a list's keyset cursor must be. */
export type CursorField = 'timestamp' | 'text' | 'int' | 'number';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

function fits(v: string | number, field: CursorField): boolean {
  switch (field) {
    case 'text':
      return typeof v === 'string';
    case 'timestamp':
      return typeof v === 'string' && ISO_TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v));
    case 'int':
      return typeof v === 'number' ? Number.isSafeInteger(v) : /^-?\d{1,15}$/.test(v);
    case 'number':
      return typeof v === 'number'
        ? Number.isFinite(v)
        : /^-?\d{1,20}(\.\d{1,20})?(e[-+]?\d{1,3})?$/i.test(v) && Number.isFinite(Number(v));
  }
}

/**
 * The page's cursor checked against the shape of the list it is used on, before any query: a cursor
 * that decodes but was made for another list, or forged (a date that is not a date, a rank that is
 * not a number), is a 400. Every keyset list reads its cursor through this.
 */
export function cursorKey(page: PageRequest, shape: readonly CursorField[]): CursorKey | undefined {
  if (!page.after) return undefined;
  if (page.after.length !== shape.length || !shape.every((field, i) => fits(page.after![i], field))) {
    throw new InvalidInputError('Invalid page cursor: it was not made for this list');
  }
  return page.after;
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

/**
 * A page of an in-memory list (a revision's files, links, backlinks), keyed by a unique text key:
 * the list is sorted by it here (bytewise), so callers need not sort.
 */
export function pageInMemory<T>(items: T[], key: (item: T) => string, page: PageRequest): Page<T> {
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const after = cursorKey(page, ['text'])?.[0] as string | undefined;
  const rows = sorted.filter((item) => after === undefined || key(item) > after).slice(0, page.limit + 1);
  return toPage(rows, page, sorted.length, (item) => [key(item)]);
}
