import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { Db, SqlTable } from '..';

interface Thing {
  id: string;
  title: string;
  tags: string[];
  meta: { n: number };
  at: Date;
}

/** SqlTable on a real PostgreSQL: one column map for the insert; updates write only what changed, guarded. */
describe('SqlTable (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  const things = new SqlTable<Thing>('things', {
    id: (t) => t.id,
    title: (t) => t.title,
    tags: (t) => t.tags,
    meta: (t) => JSON.stringify(t.meta),
    at: (t) => t.at,
  });
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const thing: Thing = { id: 'a', title: 'A', tags: ['x'], meta: { n: 1 }, at: t0 };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    await d.query(
      'CREATE TABLE things (id text PRIMARY KEY, title text, tags text[], meta jsonb, at timestamptz, version int NOT NULL DEFAULT 0)',
    );
    const { sql, params } = things.insert(thing);
    await d.query(sql, params);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const row = async () => (await d.query<Record<string, unknown>[]>(`SELECT * FROM things WHERE id = 'a'`))[0];

  it('inserts every column of the map', async () => {
    expect(await row()).toEqual({ id: 'a', title: 'A', tags: ['x'], meta: { n: 1 }, at: t0, version: 0 });
    const conflict = things.insert(thing, 'ON CONFLICT (id) DO NOTHING RETURNING id');
    expect(await d.query(conflict.sql, conflict.params)).toEqual([]);
  });

  it('an update writes only the changed columns: another writer’s column survives; nothing changed writes nothing', async () => {
    await d.query(`UPDATE things SET title = 'Theirs' WHERE id = 'a'`);
    expect(things.changed(thing, { ...thing, meta: { n: 2 } })).toEqual(['meta']);
    expect(
      await things.update(
        d,
        thing,
        { ...thing, meta: { n: 2 }, at: new Date(t0.getTime()) },
        { id: 'a' },
        { also: ['version = version + 1'] },
      ),
    ).toBe(1);
    expect(await row()).toMatchObject({ title: 'Theirs', meta: { n: 2 }, version: 1 });
    expect(await things.update(d, thing, { ...thing }, { id: 'a' })).toBe(0);
  });

  it('a guard that no longer holds writes nothing', async () => {
    expect(await things.update(d, thing, { ...thing, tags: ['y'] }, { id: 'a' }, { guard: { title: 'A' } })).toBe(0);
    expect(await things.update(d, thing, { ...thing, tags: ['y'] }, { id: 'a' }, { guard: { title: 'Theirs' } })).toBe(1);
    expect((await row()).tags).toEqual(['y']);
  });
});
