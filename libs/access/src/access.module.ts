import { Module } from '@nestjs/common';
import { Access } from './application/access';
import { AccessChanges } from './application/access-changes';
import { ContentPermissionRepository } from './domain/grants';
import { Memberships } from './domain/memberships';
import { PgAccessChanges } from './infrastructure/pg-access-changes';
import { SqlContentPermissionRepository } from './infrastructure/content-permissions.repository';
import { SqlMemberships } from './infrastructure/sql-memberships';

/**
 * Access: the effective role and grants. Every context that decides "may this actor do this" imports
 * it. Needs `Clock`, `Db` and `AccessCacheSettings` from the application (global providers).
 */
@Module({
  providers: [
    Access,
    { provide: Memberships, useClass: SqlMemberships },
    { provide: ContentPermissionRepository, useClass: SqlContentPermissionRepository },
    { provide: AccessChanges, useClass: PgAccessChanges },
  ],
  exports: [Access, AccessChanges, ContentPermissionRepository],
})
export class AccessModule {}
