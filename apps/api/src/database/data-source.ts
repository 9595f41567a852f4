import { DataSourceOptions } from 'typeorm';
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
