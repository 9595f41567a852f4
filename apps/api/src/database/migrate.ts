import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';

/**
 * Applies pending migrations to a database, in one transaction. Needs no entities, so tools and the
 * test setup can run it without loading the application's modules.
 */
export async function migrate(url: string): Promise<string[]> {
  const ds = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS, logging: ['error'] });
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'all' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
