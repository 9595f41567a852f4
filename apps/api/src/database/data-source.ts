import { DataSourceOptions } from 'typeorm';
import { ORGANIZATION_ENTITIES } from '@app/organizations-and-teams';
import { PG_TYPES } from '@app/persistence';
import { CONTENT_ENTITIES } from '@app/spaces-and-content';
import { MIGRATIONS } from './migrations';
import { TypeOrmLogger } from './typeorm-logger';

export const ENTITIES = [...ORGANIZATION_ENTITIES, ...CONTENT_ENTITIES];

/**
 * TypeORM options for a database URL. Migrations are run before (main.ts and the CLI call `migrate`, which
 * holds an advisory lock so that containers starting together migrate one at a time); schema
 * synchronization is never on.
 */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000, // slower statements are logged at warn
    extra: { max: 20, application_name: 'quire', types: PG_TYPES }, // PG_TYPES: timestamptz read without regexes
  };
}
