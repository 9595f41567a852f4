import { same, type Db } from './db';

/** How one column of a table is written from a domain object (JSON columns: give the JSON text). */
export type ColumnsOf<T> = Record<string, (value: T) => unknown>;

/**
 * A table written from domain objects through `Db`, by a column map (column → how it is read from the
 * object): one place that knows the columns, for the insert and for updates. An update writes only
 * the columns whose value differs between `before` (as read) and `after`, so a concurrent writer's
 * change to another column survives; `where` and `guard` columns say which row, and that it still holds
 * what was read there. For adapters that write with SQL (`db.query`) rather than TypeORM entities.
 */
export class SqlTable<T> {
  private readonly names: string[];

  constructor(
    readonly name: string,
    private readonly columns: ColumnsOf<T>,
  ) {
    this.names = Object.keys(columns);
  }

  /** `INSERT INTO name (...) VALUES (...)` and its parameters, with `tail` appended (ON CONFLICT, RETURNING). */
  insert(value: T, tail = ''): { sql: string; params: unknown[] } {
    const params = this.names.map((c) => this.columns[c](value));
    const sql = `INSERT INTO ${this.name} (${this.names.join(', ')}) VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')})${tail ? ` ${tail}` : ''}`;
    return { sql, params };
  }

  /** The values of these columns, in order (for a statement of the adapter's own). */
  values(value: T, columns: string[]): unknown[] {
    return columns.map((c) => this.columns[c](value));
  }

  /** The columns that differ between `before` and `after` (by value; JSON columns by their text). */
  changed(before: T, after: T): string[] {
    return this.names.filter((c) => !same(this.columns[c](before), this.columns[c](after)));
  }

  /**
   * Writes the changed columns (and `also`, e.g. a version bump) of the row `where` names, if it still
   * holds `guard`'s values; answers how many rows it changed (0: nothing to change, or the guard missed).
   */
  async update(
    db: Db,
    before: T,
    after: T,
    where: Record<string, unknown>,
    options: { guard?: Record<string, unknown>; also?: string[] } = {},
  ): Promise<number> {
    const changed = this.changed(before, after);
    const also = options.also ?? [];
    if (changed.length === 0 && also.length === 0) return 0;
    const params: unknown[] = [];
    const sets = [...changed.map((c) => `${c} = $${params.push(this.columns[c](after))}`), ...also];
    const conditions = Object.entries({ ...where, ...options.guard }).map(([c, v]) =>
      v === null ? `${c} IS NULL` : `${c} = $${params.push(v)}`,
    );
    return db.execute(`UPDATE ${this.name} SET ${sets.join(', ')} WHERE ${conditions.join(' AND ')}`, params);
  }
}
