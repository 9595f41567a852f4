import { DataSource } from 'typeorm';
import { decodeCursor, InvalidInputError } from '@app/shared-kernel';
import { createTestDatabase } from '../../../../test/support/database';
import { Db, keysetPage, type Keyset } from '..';

/** The one keyset-paged list on a real PostgreSQL: count and page in one statement, a page past the end, no extra column. */
describe('keysetPage (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  /** One connection, so the statements it prepared can be seen from it. */
  let single: DataSource;
  interface Row {
    id: number;
    org: string;
  }
  const keyset: Keyset<Row> = { columns: ['q.id'], shape: ['int'], keyOf: (r) => [r.id] };
  const base = 'SELECT id, org FROM keyset_probe WHERE org = $1';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    single = new DataSource({ type: 'postgres', url: db.url, entities: [], extra: { max: 1 } });
    await Promise.all([ds.initialize(), single.initialize()]);
    await ds.query('CREATE TABLE keyset_probe (id int PRIMARY KEY, org text NOT NULL)');
    await ds.query(`INSERT INTO keyset_probe SELECT n, CASE WHEN n <= 5 THEN 'a' ELSE 'b' END FROM generate_series(1, 8) AS n`);
  });
  afterAll(async () => {
    await Promise.all([single.destroy(), ds.destroy()]);
    await db.drop();
  });

  it('pages through the rows of the base query with the total count on every page, and nothing but the rows', async () => {
    const first = await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2 });
    expect(first.items).toEqual([
      { id: 1, org: 'a' },
      { id: 2, org: 'a' },
    ]);
    expect(first.count).toBe(5);
    const second = await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2, after: decodeCursor(first.next!) });
    expect(second.items.map((r) => r.id)).toEqual([3, 4]);
    expect(second.count).toBe(5);
    const last = await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2, after: decodeCursor(second.next!) });
    expect(last.items.map((r) => r.id)).toEqual([5]);
    expect(last.next).toBeUndefined();
    expect(Object.keys(last.items[0]).sort()).toEqual(['id', 'org']);
  });

  it('still counts on a page past the end (no row carries the count) and on an empty list', async () => {
    const past = await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2, after: [99] });
    expect(past).toEqual({ items: [], count: 5, next: undefined });
    expect(await keysetPage<Row>(ds, base, ['nobody'], keyset, { limit: 2 })).toEqual({ items: [], count: 0, next: undefined });
  });

  it('runs as prepared statements through Db (planned once per connection), with the same pages', async () => {
    const named = new Db(single);
    const first = await keysetPage<Row>(named, base, ['a'], keyset, { limit: 2 });
    expect(first).toEqual(await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2 }));
    const after = decodeCursor(first.next!);
    expect(await keysetPage<Row>(named, base, ['a'], keyset, { limit: 2, after })).toEqual(
      await keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2, after }),
    );
    expect(await keysetPage<Row>(named, base, ['a'], keyset, { limit: 2, after: [99] })).toEqual({ items: [], count: 5, next: undefined });
    const prepared = await single.query<{ name: string; statement: string }[]>('SELECT name, statement FROM pg_prepared_statements');
    // The first page, a page after a cursor, and the count of a page past the end: three statements, each named by its text.
    expect(prepared.filter((p) => p.name.startsWith('keyset_'))).toHaveLength(3);
    // Run again, nothing new is prepared.
    await keysetPage<Row>(named, base, ['b'], keyset, { limit: 2 });
    expect(await single.query('SELECT count(*)::int AS n FROM pg_prepared_statements')).toEqual([{ n: prepared.length }]);
  });

  it('refuses a cursor of another shape before any query', async () => {
    await expect(keysetPage<Row>(ds, base, ['a'], keyset, { limit: 2, after: ['x'] })).rejects.toThrow(InvalidInputError);
  });
});
