// The public surface of the audit-and-webhooks context. Other contexts import only this file.
export { AuditAndWebhooksModule } from './audit-and-webhooks.module';
export { AuditLog, AuditSettings, AUDIT_PURGE_QUEUE, CLI_ACTIONS } from './application/audit-log.service';
export { AuditScopes } from './domain/audit-event';
export type { AuditActor, AuditTarget, NewAuditEvent } from './domain/audit-event';
export {
  WebhooksService,
  WebhookSettings,
  DELIVER_QUEUE as WEBHOOK_DELIVER_QUEUE,
  SWEEP_QUEUE as WEBHOOKS_SWEEP_QUEUE,
} from './application/webhooks.service';
export { WebhookDeliveries } from './application/webhook-deliveries.service';
export { WebhookEventTypes } from './domain/webhook';
