import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, type Pool } from 'pg';
import { DataSource, EntityManager, EntityTarget, FindOptionsWhere, IsNull, ObjectLiteral, QueryRunner, Repository } from 'typeorm';
import { UnitOfWork } from '@app/shared-kernel';

interface Ambient {
  manager: EntityManager;
  before: (() => Promise<void>)[];
  undo: (() => Promise<void>)[];
  committed: (() => void)[];
}

const ambient = new AsyncLocalStorage<Ambient>();
/** SQLSTATE 0A000, which PostgreSQL answers when a prepared statement's result columns changed under it. */
const FEATURE_NOT_SUPPORTED = '0A000';

/**
 * The one way adapters reach PostgreSQL. Inside a unit of work (`UnitOfWork.run`) every call goes
 * through that transaction's connection; outside one, through the pool. Adapters never hold a
 * DataSource or an injected Repository of their own, so any write can join a caller's transaction.
 */
@Injectable()
export class Db {
  private readonly logger = new Logger('Db');
  /** Bumped when prepared statements went stale (see namedQuery): part of every statement name after that. */
  private statementGeneration = 0;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The current transaction's manager, or the data source's. */
  get manager(): EntityManager {
    return ambient.getStore()?.manager ?? this.ds.manager;
  }

  /** True while a unit of work (or `transaction`) is open in this async context. */
  get inTransaction(): boolean {
    return ambient.getStore() !== undefined;
  }

  repo<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(entity);
  }

  // Rows are typed by the caller (`const rows: Row[] = await db.query(…)`), as with TypeORM's own query.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query<R = any>(sql: string, params?: unknown[]): Promise<R> {
    return this.manager.query(sql, params);
  }

  /**
   * Runs `work` in a transaction: the caller's, when one is open (so the adapter's statements commit
   * with the rest of the use case), else a new one. Statements issued through `this` inside `work`
   * use it too.
   */
  async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const current = ambient.getStore();
    if (current) return work(current.manager);
    const store: Ambient = { manager: this.ds.manager, before: [], undo: [], committed: [] };
    let result: T;
    try {
      // The transaction begins with its first statement: until then it holds no connection.
      const runner = this.ds.createQueryRunner();
      beginWithFirstStatement(runner);
      try {
        result = await runner.manager.transaction((em) => {
          store.manager = em;
          oneAtATime(em);
          return ambient.run(store, async () => {
            const value = await work(em);
            // Registered during the work, run in it (a hook may register more).
            for (let i = 0; i < store.before.length; i++) await store.before[i]();
            return value;
          });
        });
      } finally {
        await runner.release();
      }
    } catch (e) {
      // Rolled back: undo the side effects outside the database, newest first.
      for (const undo of store.undo.reverse()) {
        await undo().catch((u: unknown) =>
          this.logger.error(`undoing a side effect of a rolled-back unit of work failed: ${u instanceof Error ? u.message : String(u)}`),
        );
      }
      throw e;
    }
    for (const then of store.committed) {
      try {
        then();
      } catch (e) {
        this.logger.error(`an after-commit action failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return result;
  }

  /** See UnitOfWork.outside. */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return ambient.exit(work);
  }

  /** See UnitOfWork.afterCommit. */
  afterCommit(then: () => void): void {
    const store = ambient.getStore();
    if (store) store.committed.push(then);
    else then();
  }

  /** See UnitOfWork.beforeCommit. */
  beforeCommit(work: () => Promise<void>): void {
    const store = ambient.getStore();
    if (store) store.before.push(work);
    else
      work().catch((e: unknown) =>
        this.logger.error(`a durable record outside a unit of work failed: ${e instanceof Error ? e.message : String(e)}`),
      );
  }

  /** See UnitOfWork.onRollback. */
  onRollback(undo: () => Promise<void>): void {
    ambient.getStore()?.undo.push(undo);
  }

  /** The pool's connections (all, idle) and the callers waiting for one: for metrics. */
  poolStats(): { total: number; idle: number; waiting: number } {
    const pool = (this.ds.driver as unknown as { master?: Pool }).master;
    return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
  }

  /** The connection URL of the data source (for connections of their own, e.g. LISTEN). */
  get url(): string {
    return (this.ds.options as { url?: string }).url ?? '';
  }

  /** An UPDATE or DELETE: how many rows it changed. */
  async execute(sql: string, params?: unknown[]): Promise<number> {
    const [, affected] = await this.manager.query<[unknown, number]>(sql, params);
    return affected;
  }

  /** Sends a notification; inside a unit of work it is delivered when (and only if) it commits. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * A hot read as a named (prepared) statement on TypeORM's own pg pool: planned once per connection,
   * without a query runner or entity hydration (docs/benchmarks.md). Inside a unit of work it runs on
   * the transaction's connection instead (unnamed), so it sees the transaction's writes.
   */
  async namedQuery<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const current = ambient.getStore();
    if (current) return current.manager.query(text, values);
    const pool = (this.ds.driver as unknown as { master: Pool }).master;
    const generation = this.statementGeneration;
    try {
      return (await pool.query<R & object>({ name: generation ? `${name}_${generation}` : name, text, values })).rows;
    } catch (e) {
      // A prepared `SELECT *` whose table gained a column since (another process's migration, in a rolling
      // deploy) fails with "cached plan must not change result type" on every connection that prepared it.
      // Statements are then prepared again under new names: the old ones go with their connections.
      if ((e as { code?: string }).code !== FEATURE_NOT_SUPPORTED) throw e;
      if (this.statementGeneration === generation) this.statementGeneration++;
      return (await pool.query<R & object>({ name: `${name}_${this.statementGeneration}`, text, values })).rows;
    }
  }
}

/**
 * A transaction is one connection, and a use case may start several reads at once (`Promise.all`).
 * pg queues them on the client, but that is deprecated and goes away in pg 9 ("Calling client.query()
 * when the client is already executing a query"). So the transaction's query runner, through which
 * every statement of the manager and its repositories goes, takes them one after the other here, in
 * the order they were issued: what pg does now, without relying on it.
 */
function oneAtATime(em: EntityManager): void {
  const runner = em.queryRunner;
  if (!runner) return;
  const query = runner.query.bind(runner);
  let tail: Promise<unknown> = Promise.resolve();
  runner.query = ((...args: Parameters<typeof query>) => {
    const run = tail.then(() => query(...args));
    tail = run.catch(() => undefined);
    return run;
  }) as typeof runner.query;
}

/**
 * Defers `START TRANSACTION` to the unit of work's first statement (and skips COMMIT or ROLLBACK when
 * there was none): a unit of work that is open but has not touched the database (an audited write
 * still checking its input, fetching a URL) holds no pool connection. The query runner takes its
 * connection from the pool on its first query, so nothing is acquired before then either.
 */
function beginWithFirstStatement(runner: QueryRunner): void {
  const query = runner.query.bind(runner);
  let state: 'none' | 'deferred' | 'open' = 'none';
  runner.query = ((sql: string, ...rest: unknown[]) => {
    if (state === 'none' && sql === 'START TRANSACTION') {
      state = 'deferred';
      return Promise.resolve(undefined);
    }
    if (state === 'deferred') {
      if (sql === 'COMMIT' || sql === 'ROLLBACK') {
        state = 'none';
        return Promise.resolve(undefined);
      }
      state = 'open';
      return query('START TRANSACTION').then(() => query(sql, ...(rest as [])));
    }
    if (sql === 'COMMIT' || sql === 'ROLLBACK') state = 'none';
    return query(sql, ...(rest as []));
  }) as typeof runner.query;
}

/** A LISTEN on its own connection; `connected` tells whether notifications are flowing now. */
export interface Listener {
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` through a dedicated connection (not the pool), reconnecting with backoff when
 * it drops. `onReconnect` runs after every (re)connection, so the caller can drop whatever it may
 * have missed while the channel was down.
 */
export function listen(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect: () => void,
  log: (e: unknown) => void,
): Listener {
  let client: Client | null = null;
  let closed = false;
  let connected = false;
  let delay = 250;
  let timer: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 30_000);
  };
  const connect = async () => {
    const c = new Client({ connectionString: url, application_name: 'quire-listen' });
    client = c;
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onMessage(n.payload);
    });
    c.on('error', (e) => {
      connected = false;
      log(e);
      void c.end().catch(() => undefined);
      schedule();
    });
    c.on('end', () => {
      connected = false;
      schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      if (closed) return void (await c.end());
      connected = true;
      delay = 250;
      onReconnect();
    } catch (e) {
      connected = false;
      log(e);
      void c.end().catch(() => undefined);
      schedule();
    }
  };
  void connect();
  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      connected = false;
      await client?.end().catch(() => undefined);
    },
  };
}

/** UnitOfWork on PostgreSQL: one transaction, joined by every adapter through `Db`. */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly db: Db) {
    super();
  }
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(() => work());
  }
  onRollback(undo: () => Promise<void>): void {
    this.db.onRollback(undo);
  }
  afterCommit(then: () => void): void {
    this.db.afterCommit(then);
  }
  beforeCommit(work: () => Promise<void>): void {
    this.db.beforeCommit(work);
  }
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.db.outside(work);
  }
}

/** Equal column values: dates by time, json and arrays by their text. */
export function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * A guarded partial update, the one way a PATCH-like write reaches a row: only the columns whose value
 * differs between `before` (as read) and `after` are written, and only if the row still holds what was
 * read in those columns and in `guard` (e.g. not deleted, not transferred meanwhile). Scalar columns
 * are compared; json and array columns are written, not compared. False when the row changed under
 * the caller, who reads again and re-applies its change, or answers 409.
 */
export async function updateChanged<T extends ObjectLiteral>(
  repo: Repository<T>,
  key: Partial<T>,
  before: T,
  after: T,
  guard: (keyof T & string)[],
): Promise<boolean> {
  const changed = (Object.keys(after) as (keyof T & string)[]).filter((k) => !(k in key) && !same(before[k], after[k]));
  const where: Record<string, unknown> = { ...key };
  for (const k of [...guard, ...changed]) {
    const v: unknown = before[k];
    if (v === null || v === undefined) where[k] = IsNull();
    else if (typeof v !== 'object' || v instanceof Date) where[k] = v;
  }
  if (!changed.length) return repo.existsBy(where as FindOptionsWhere<T>);
  const patch = Object.fromEntries(changed.map((k) => [k, after[k]]));
  const result = await repo.update(where as FindOptionsWhere<T>, patch as unknown as Parameters<Repository<T>['update']>[1]);
  return (result.affected ?? 0) > 0;
}
