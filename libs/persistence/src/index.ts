// The persistence kit every context's TypeORM adapters share. Import only this file.
export { Db, listen, TypeOrmUnitOfWork, updateChanged } from './db';
export type { Listener } from './db';
export { PersistenceModule } from './persistence.module';
export { isoSortKey, keysetPage, narrowingSql } from './keyset';
export type { Keyset } from './keyset';
export { parseTimestamptz, PG_TYPES } from './timestamptz';
export { SqlTable } from './sql-table';
export type { ColumnsOf } from './sql-table';
export { DATABASE_UNAVAILABLE, databaseAddress, isDatabaseUnavailable } from './unavailable';
export type { DatabaseAddress } from './unavailable';
