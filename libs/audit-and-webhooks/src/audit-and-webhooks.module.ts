import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { AuditLog } from './application/audit-log.service';
import { AuditEventRepository } from './domain/audit-event';
import { AuditController } from './http/audit.controller';
import { AuditInterceptor } from './http/audit.interceptor';
import { SqlAuditEventRepository } from './infrastructure/audit-events.repository';
import { WebhooksService } from './application/webhooks.service';
import { WebhookDeliveries } from './application/webhook-deliveries.service';
import { WebhookRepository } from './domain/webhook';
import { WebhooksController } from './http/webhooks.controller';
import { SqlWebhookRepository } from './infrastructure/webhooks.repository';
import { AccessModule } from '@app/access';

/**
 * Who did what (the audit log) and who gets told (webhooks). AuditInterceptor binds itself to every
 * authenticated write handler of the app (reads get no interceptor). The app answers the AuditScopes port (which organization a space or collection is in) and
 * the WebhookEventTypes port (the event types of every context), and gives AuditSettings and WebhookSettings.
 */
@Module({
  imports: [AccessModule, OrganizationsAndTeamsModule, DiscoveryModule],
  controllers: [AuditController, WebhooksController],
  providers: [
    AuditLog,
    AuditInterceptor,
    WebhooksService,
    WebhookDeliveries,
    { provide: AuditEventRepository, useClass: SqlAuditEventRepository },
    { provide: WebhookRepository, useClass: SqlWebhookRepository },
  ],
  exports: [AuditLog, AuditInterceptor, WebhooksService, WebhookDeliveries],
})
export class AuditAndWebhooksModule {}
