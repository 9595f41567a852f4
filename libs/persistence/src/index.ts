// The persistence kit every context's TypeORM adapters share. Import only this file.
export { Db, TypeOrmUnitOfWork } from './db';
export { PersistenceModule } from './persistence.module';
