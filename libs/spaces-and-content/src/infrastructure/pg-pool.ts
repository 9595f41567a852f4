import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * TypeORM's own pg pool, for the hottest statements: named (prepared) statements, planned once per
 * connection, without a query runner or entity hydration (see docs/benchmarks.md).
 */
export function pgPool(ds: DataSource): Pool {
  return (ds.driver as unknown as { master: Pool }).master;
}
