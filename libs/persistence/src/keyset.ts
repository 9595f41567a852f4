import { hash } from 'node:crypto';
import { CursorField, CursorKey, cursorKey, Narrowing, Page, PageRequest, toPage } from '@app/shared-kernel';

/** How a list is ordered and paged: the one description every keyset-paged list gives. */
export interface Keyset<R> {
  /** Sort expressions over the columns of the base query, which is aliased `q` (e.g. `q.created_at`, `q.id`). */
  columns: string[];
  /** What each member of the cursor must be; a cursor of another shape is a 400 before any query. */
  shape: CursorField[];
  /** The sort key of a row, in `columns` order: the last row's becomes the next page's cursor. */
  keyOf: (row: R) => CursorKey;
  direction?: 'asc' | 'desc';
}

const CAST: Record<CursorField, string> = { timestamp: '::timestamptz', int: '::bigint', number: '::float8', text: '' };

const COUNT = '__keyset_count';

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** A prepared statement named by the caller (Db's, outside a transaction): planned once per connection. */
  namedQuery?<R>(name: string, text: string, values: unknown[]): Promise<R[]>;
}

/**
 * Runs a list statement as a prepared statement when the database offers them: a list's statement
 * text depends only on its call site and whether a cursor is given, so there are few of them, and
 * PostgreSQL then plans each once per connection instead of on every page. The name is the text's
 * hash (a name is bound to one text per connection).
 */
function run(db: Queryable, text: string, values: unknown[]): Promise<unknown> {
  if (!db.namedQuery) return db.query(text, values);
  return db.namedQuery(`keyset_${hash('sha1', text).slice(0, 24)}`, text, values);
}

/**
 * The one keyset-paged list: the total count of `base` and `limit + 1` of its rows after the
 * cursor in key order (the extra row only tells that there is a next page), in one statement. Rows added or removed
 * meanwhile never shift a page.
 *
 * `base` must be built from constants and `$n` placeholders only (optional filters may add clauses): it is
 * prepared on each connection that runs it, so its distinct texts must stay few, and no value belongs in SQL text.
 */
export async function keysetPage<R>(
  db: Queryable,
  base: string,
  params: unknown[],
  keyset: Keyset<R>,
  page: PageRequest,
): Promise<Page<R>> {
  const after = cursorKey(page, keyset.shape);
  const direction = keyset.direction ?? 'asc';
  const p = [...params];
  let where = '';
  if (after) {
    const values = after.map((v, i) => `$${p.push(v)}${CAST[keyset.shape[i]]}`);
    where = `WHERE (${keyset.columns.join(', ')}) ${direction === 'asc' ? '>' : '<'} (${values.join(', ')})`;
  }
  const order = keyset.columns.map((c) => `${c} ${direction}`).join(', ');
  // One statement (one round trip, one snapshot): the count is an uncorrelated subquery, computed once.
  const rows = (await run(
    db,
    `SELECT q.*, (SELECT count(*)::int FROM (${base}) AS c) AS "${COUNT}" FROM (${base}) AS q ${where} ORDER BY ${order} LIMIT $${p.push(page.limit + 1)}`,
    p,
  )) as (R & { [COUNT]?: number })[];
  let count: number;
  if (rows.length) {
    count = rows[0][COUNT] ?? 0;
    for (const row of rows) delete row[COUNT];
  } else {
    // A page past the end has no row to carry the count.
    [{ count }] = (await run(db, `SELECT count(*)::int AS count FROM (${base}) AS q`, params)) as { count: number }[];
  }
  return toPage(rows, page, count, keyset.keyOf);
}

/** A timestamp column as fixed-width UTC text in byte order: a text sort key that survives the cursor round trip. */
export function isoSortKey(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') COLLATE "C"`;
}

/**
 * The SQL condition that narrows a list (`Narrowing`) on an id column: ` AND …`, or '' when nothing narrows
 * it. `only` (a guest's few items) is `= ANY`, which an index on the column answers; `except` goes through
 * a subquery, hashed in a prepared statement's generic plan, where `NOT (… = ANY($n))` compared every row
 * with every id (the member's page of spaces took 2.5× as long with 100 ids).
 */
export function narrowingSql(column: string, narrowing: Narrowing, params: unknown[]): string {
  if (narrowing === null) return '';
  return 'only' in narrowing
    ? ` AND ${column} = ANY($${params.push(narrowing.only)}::text[])`
    : narrowing.except.length === 0
      ? ''
      : ` AND ${column} NOT IN (SELECT unnest($${params.push(narrowing.except)}::text[]))`;
}
