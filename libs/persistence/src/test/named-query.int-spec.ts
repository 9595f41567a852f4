import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { Db } from '..';

/** Db.namedQuery on a real PostgreSQL: prepared statements that outlive a schema change (a rolling deploy's migration). */
describe('Db.namedQuery (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: DataSource;
  let other: DataSource;
  let d: Db;

  beforeAll(async () => {
    db = await createTestDatabase();
    // One pooled connection, so the statement prepared on it is the one reused.
    pool = new DataSource({ type: 'postgres', url: db.url, entities: [], extra: { max: 1 } });
    other = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await Promise.all([pool.initialize(), other.initialize()]);
    d = new Db(pool);
    await other.query('CREATE TABLE named_probe (id int PRIMARY KEY, title text)');
    await other.query(`INSERT INTO named_probe VALUES (1, 'one')`);
  });
  afterAll(async () => {
    await Promise.all([pool.destroy(), other.destroy()]);
    await db.drop();
  });

  it('answers with the new columns after another connection added one to a table a prepared SELECT * reads', async () => {
    const read = () => d.namedQuery<Record<string, unknown>>('named_probe_by_id', 'SELECT * FROM named_probe WHERE id = $1', [1]);
    const byTitle = () => d.namedQuery<{ id: number }>('named_probe_by_title', 'SELECT id FROM named_probe WHERE title = $1', ['one']);
    expect(await read()).toEqual([{ id: 1, title: 'one' }]);
    expect(await byTitle()).toEqual([{ id: 1 }]);
    // PostgreSQL refuses to run the prepared statement now ("cached plan must not change result type").
    await other.query(`ALTER TABLE named_probe ADD COLUMN summary text NOT NULL DEFAULT 'added'`);
    expect(await read()).toEqual([{ id: 1, title: 'one', summary: 'added' }]);
    // Later calls, and other statements, go on working (under their new names).
    expect(await read()).toEqual([{ id: 1, title: 'one', summary: 'added' }]);
    expect(await byTitle()).toEqual([{ id: 1 }]);
  });

  it('still fails on any other error, naming it', async () => {
    await expect(d.namedQuery('named_probe_missing', 'SELECT * FROM no_such_table', [])).rejects.toThrow(/no_such_table/);
  });
});
