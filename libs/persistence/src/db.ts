import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { UnitOfWork } from '@app/shared-kernel';

const ambient = new AsyncLocalStorage<EntityManager>();

/**
 * The one way adapters reach PostgreSQL. Inside a unit of work (`UnitOfWork.run`) every call goes
 * through that transaction's connection; outside one, through the pool. Adapters never hold a
 * DataSource or an injected Repository of their own, so any write can join a caller's transaction.
 */
@Injectable()
export class Db {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The current transaction's manager, or the data source's. */
  get manager(): EntityManager {
    return ambient.getStore() ?? this.ds.manager;
  }

  /** True while a unit of work (or `transaction`) is open in this async context. */
  get inTransaction(): boolean {
    return ambient.getStore() !== undefined;
  }

  repo<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(entity);
  }

  query<R = any>(sql: string, params?: unknown[]): Promise<R> {
    return this.manager.query(sql, params);
  }

  /**
   * Runs `work` in a transaction: the caller's, when one is open (so the adapter's statements commit
   * with the rest of the use case), else a new one. Statements issued through `this` inside `work`
   * use it too.
   */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const current = ambient.getStore();
    if (current) return work(current);
    return this.ds.transaction((em) => ambient.run(em, () => work(em)));
  }

  /**
   * A hot read as a named (prepared) statement on TypeORM's own pg pool: planned once per connection,
   * without a query runner or entity hydration (docs/benchmarks.md). Inside a unit of work it runs on
   * the transaction's connection instead (unnamed), so it sees the transaction's writes.
   */
  async namedQuery<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const current = ambient.getStore();
    if (current) return current.query(text, values);
    const pool = (this.ds.driver as unknown as { master: Pool }).master;
    return (await pool.query<R & object>({ name, text, values })).rows;
  }
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
}
