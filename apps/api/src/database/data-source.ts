import { DataSourceOptions } from 'typeorm';
import { PG_TYPES } from '@app/persistence';
import { MIGRATIONS } from './migrations';
import { TypeOrmLogger } from './typeorm-logger';

/**
 * TypeORM options for a database URL. Migrations are run before (main.ts and the CLI call `migrate`, which
 * holds an advisory lock so that containers starting together migrate one at a time); schema
 * synchronization is never on. No entity list: each context registers its own entities
 * (`TypeOrmModule.forFeature`) and the app loads them (`autoLoadEntities`).
 */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000, // slower statements are logged at warn
    // PG_TYPES: timestamptz read without regexes. A request that waits 10 s for a free connection gives up
    // (503, try again) instead of queueing for ever.
    extra: { max: 20, application_name: 'quire', types: PG_TYPES, connectionTimeoutMillis: 10_000 },
  };
}
