// The public surface of the audit-and-webhooks context. Other contexts import only this file.
export { AuditAndWebhooksModule } from './audit-and-webhooks.module';
export { AuditLog, AuditSettings, AUDIT_PURGE_QUEUE, CLI_ACTIONS } from './application/audit-log.service';
export { AuditInterceptor } from './http/audit.interceptor';
export { AuditScopes } from './domain/audit-event';
export type { AuditActor, AuditTarget, NewAuditEvent } from './domain/audit-event';
