import { DataSource, DataSourceOptions } from 'typeorm';
import { ORGANIZATION_ENTITIES } from '@app/organizations-and-teams';
import { CONTENT_ENTITIES } from '@app/spaces-and-content';
import { MIGRATIONS } from './migrations';

export const ENTITIES = [...ORGANIZATION_ENTITIES, ...CONTENT_ENTITIES];

/** TypeORM options for a database URL: migrations run at start-up, schema synchronization is never on. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: ['error'],
    extra: { max: 20, application_name: 'quire' },
  };
}

/** Applies pending migrations to a database (used by tests to build the template database). */
export async function migrate(url: string): Promise<void> {
  const ds = new DataSource({ ...dataSourceOptions(url), migrationsRun: false });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
  } finally {
    await ds.destroy();
  }
}
