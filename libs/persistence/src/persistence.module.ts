import { Global, Module } from '@nestjs/common';
import { UnitOfWork } from '@app/shared-kernel';
import { Db, TypeOrmUnitOfWork } from './db';

/** Db (how adapters reach PostgreSQL) and the UnitOfWork port's adapter, for every context. */
@Global()
@Module({
  providers: [Db, { provide: UnitOfWork, useClass: TypeOrmUnitOfWork }],
  exports: [Db, UnitOfWork],
})
export class PersistenceModule {}
