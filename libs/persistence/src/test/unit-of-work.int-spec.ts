import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { Db, TypeOrmUnitOfWork } from '..';

/** The unit of work on a real PostgreSQL: after-commit actions run after the commit, and never on rollback. */
describe('TypeOrmUnitOfWork (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let uow: TypeOrmUnitOfWork;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    uow = new TypeOrmUnitOfWork(d);
    await d.query('CREATE TABLE uow_probe (n int)');
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const committedRows = async () => {
    // Read on another connection than the unit's: only committed rows are visible there.
    const other = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await other.initialize();
    try {
      const rows = await other.query<{ n: number }[]>('SELECT count(*)::int AS n FROM uow_probe');
      return rows[0].n;
    } finally {
      await other.destroy();
    }
  };

  it('holds no connection until its first statement; then one transaction, committed or rolled back as before', async () => {
    const pool = () => d.poolStats();
    const before = pool();
    await uow.run(async () => {
      // Open, nothing issued yet: the pool lends nothing out.
      expect(pool().total - pool().idle).toBe(before.total - before.idle);
      await new Promise((r) => setTimeout(r, 20));
      expect(pool().total - pool().idle).toBe(before.total - before.idle);
      await d.query('INSERT INTO uow_probe VALUES (100)');
      // The insert's transaction is still open for the next statement (autocommit would show no id here).
      const xact = await d.query<{ x: string | null }[]>('SELECT pg_current_xact_id_if_assigned()::text AS x');
      expect(xact[0].x).toMatch(/^\d+$/);
    });
    expect(await committedRows()).toBeGreaterThanOrEqual(1);
    await expect(
      uow.run(async () => {
        await d.query('INSERT INTO uow_probe VALUES (101)');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = await d.query<{ n: number }[]>('SELECT count(*)::int AS n FROM uow_probe WHERE n = 101');
    expect(rows[0].n).toBe(0);
    // A unit that never touched the database commits nothing and lends nothing.
    await expect(uow.run(async () => 'nothing')).resolves.toBe('nothing');
    await d.query('DELETE FROM uow_probe WHERE n = 100');
  });

  it('outside() runs on the pool, not in the unit: its statements commit on their own and see no uncommitted rows', async () => {
    await uow.run(async () => {
      await d.query('INSERT INTO uow_probe VALUES (200)');
      const seenOutside = await uow.outside(() => d.query<{ n: number }[]>('SELECT count(*)::int AS n FROM uow_probe WHERE n = 200'));
      expect(seenOutside[0].n).toBe(0);
      const seenInside = await d.query<{ n: number }[]>('SELECT count(*)::int AS n FROM uow_probe WHERE n = 200');
      expect(seenInside[0].n).toBe(1);
      await d.query('DELETE FROM uow_probe WHERE n = 200');
    });
  });

  it('runs after-commit actions once the outermost unit committed, in order; the rows are visible to others then', async () => {
    const seen: string[] = [];
    await uow.run(async () => {
      await d.query('INSERT INTO uow_probe VALUES (1)');
      uow.afterCommit(() => seen.push('outer'));
      await uow.run(async () => {
        uow.afterCommit(() => seen.push('nested'));
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['outer', 'nested']);
    expect(await committedRows()).toBe(1);
  });

  it('never runs them when the unit rolls back', async () => {
    const seen: string[] = [];
    await expect(
      uow.run(async () => {
        await d.query('INSERT INTO uow_probe VALUES (2)');
        uow.afterCommit(() => seen.push('told'));
        throw new Error('failure part-way');
      }),
    ).rejects.toThrow('failure part-way');
    expect(seen).toEqual([]);
    expect(await committedRows()).toBe(1);
  });

  it('runs them at once outside a unit of work; a failing action does not fail the committed unit', async () => {
    let ran = false;
    uow.afterCommit(() => (ran = true));
    expect(ran).toBe(true);
    await expect(
      uow.run(async () => {
        uow.afterCommit(() => {
          throw new Error('listener failed');
        });
        return 'done';
      }),
    ).resolves.toBe('done');
  });

  it('reads started together in a unit of work run one after the other on its connection, each with its own answer', async () => {
    // pg 8 queues a query sent while another runs on the same client (deprecated: pg 9 drops it). Its own
    // test for that, `_queryQueue.length > 0` when `query()` is called, is what is counted here.
    const queuedOnClient: number[] = [];
    const watch = () => {
      const client = (
        d.manager.queryRunner as unknown as { databaseConnection: { query: (...a: unknown[]) => unknown; _queryQueue: unknown[] } }
      ).databaseConnection;
      const query = client.query;
      client.query = function (this: typeof client, ...args: unknown[]) {
        queuedOnClient.push(this._queryQueue.length);
        return query.apply(this, args);
      };
    };
    const answers = await uow.run(async () => {
      await d.query('SELECT 1'); // the transaction's connection is taken
      watch();
      return Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          d.query<{ n: number }[]>(i % 3 === 0 ? 'SELECT $1::int AS n, pg_sleep(0.005)' : 'SELECT $1::int AS n', [i]).then((r) => r[0].n),
        ),
      );
    });
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(queuedOnClient).toHaveLength(21); // the 20 reads and the COMMIT
    expect(queuedOnClient.filter((n) => n > 0)).toEqual([]);
    // A failing statement fails its caller (and, as always in PostgreSQL, the transaction).
    await expect(
      uow.run(() => Promise.all([d.query('SELECT 1'), d.query('SELECT * FROM no_such_table'), d.query('SELECT 2')])),
    ).rejects.toThrow(/no_such_table/);
  });
});
