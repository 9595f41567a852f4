import type { Page, PageRequest } from '@app/shared-kernel';
import { cursorKey, toPage } from '@app/shared-kernel';
import type { EntityManager } from 'typeorm';
import type { Db } from '@app/persistence';

/**
 * Runs a keyset-paged raw query. `base` selects the rows (with `$n` parameters in `params`);
 * `key` is the [sort expression, tiebreak expression] pair; rows after the cursor come after it in `dir`.
 */
export async function sqlPage<R>(
  db: Db | EntityManager,
  base: string,
  params: unknown[],
  key: [string, string],
  dir: 'asc' | 'desc',
  page: PageRequest,
  keyOf: (row: R) => (string | number)[],
): Promise<Page<R>> {
  const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM (${base}) AS q`, params);
  const cmp = dir === 'asc' ? '>' : '<';
  const p = [...params];
  let where = '';
  const after = cursorKey(page, ['text', 'text']);
  if (after) {
    p.push(String(after[0]), String(after[1]));
    where = `WHERE (q.${key[0]}, q.${key[1]}) ${cmp} ($${p.length - 1}, $${p.length})`;
  }
  p.push(page.limit + 1);
  const rows: R[] = await db.query(
    `SELECT * FROM (${base}) AS q ${where} ORDER BY q.${key[0]} ${dir}, q.${key[1]} ${dir} LIMIT $${p.length}`,
    p,
  );
  return toPage(rows, page, count, keyOf);
}

/** A timestamp column as fixed-width UTC text in byte order: a keyset sort key that survives the cursor round trip. */
export function isoSortKey(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') COLLATE "C"`;
}
