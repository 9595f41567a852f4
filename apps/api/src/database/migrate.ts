import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** The advisory lock that makes API processes starting together migrate one after the other. */
const MIGRATION_LOCK = 715_201_001;

/**
 * Applies pending migrations to a database, in one transaction, holding an advisory lock: with several
 * API containers starting at once, one migrates and the others wait, then find nothing to apply. Needs
 * no entities, so tools and the test setup can run it without loading the application's modules.
 */
export async function migrate(url: string): Promise<string[]> {
  const ds = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS, logging: ['error'] });
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const applied = await ds.runMigrations({ transaction: 'all' });
      return applied.map((m) => m.name);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await lock.release();
    await ds.destroy();
  }
}
