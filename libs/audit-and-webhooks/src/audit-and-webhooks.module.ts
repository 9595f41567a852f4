import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { AuditLog } from './application/audit-log.service';
import { AuditEventRepository } from './domain/audit-event';
import { AuditController } from './http/audit.controller';
import { AuditInterceptor } from './http/audit.interceptor';
import { SqlAuditEventRepository } from './infrastructure/audit-events.repository';

/**
 * Who did what (the audit log) and who gets told (webhooks). The app registers AuditInterceptor as a
 * global interceptor and answers the AuditScopes port (which organization a space or collection is in).
 */
@Module({
  imports: [OrganizationsAndTeamsModule, DiscoveryModule],
  controllers: [AuditController],
  providers: [AuditLog, AuditInterceptor, { provide: AuditEventRepository, useClass: SqlAuditEventRepository }],
  exports: [AuditLog, AuditInterceptor],
})
export class AuditAndWebhooksModule {}
