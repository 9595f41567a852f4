import { Injectable, OnModuleInit } from '@nestjs/common';
import { Actor, Clock, JobQueue, NotFoundError, Page, PageRequest } from '@app/shared-kernel';
import { AuditAction, AuditEvent, AuditEventFilter, AuditEventRepository, NewAuditEvent } from '../domain/audit-event';
import { Access } from '@app/access';

/** How long events are kept (null: forever, the default). */
export abstract class AuditSettings {
  abstract readonly retentionDays: number | null;
}

export const AUDIT_PURGE_QUEUE = 'audit-purge';

/** The actions of the administration CLI (the API's are its write operations). */
export const CLI_ACTIONS: AuditAction[] = [
  { id: 'cli.user-create', label: 'Create a user (CLI)' },
  { id: 'cli.org-create', label: 'Create an organization (CLI)' },
  { id: 'cli.member-add', label: 'Add a member to an organization (CLI)' },
  { id: 'cli.token-create', label: 'Create an API token (CLI)' },
  { id: 'cli.token-revoke', label: 'Revoke an API token (CLI)' },
  { id: 'cli.user-sign-in-link', label: 'Make a one-time sign-in link (CLI)' },
  { id: 'cli.spaces-purge', label: 'Purge spaces deleted 7 days ago or more (CLI)' },
];

/**
 * Who did what: every write appends one event in its own unit of work (the API's through the
 * AuditInterceptor, the CLI's through `record`), and organization admins read them.
 */
@Injectable()
export class AuditLog implements OnModuleInit {
  private apiActions: AuditAction[] = [];

  constructor(
    private readonly events: AuditEventRepository,
    private readonly access: Access,
    private readonly settings: AuditSettings,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    if (this.settings.retentionDays === null) return;
    this.jobs.work(AUDIT_PURGE_QUEUE, async () => {
      await this.purge();
    });
    this.jobs.schedule(AUDIT_PURGE_QUEUE, '17 3 * * *');
  }

  /** Appends the event in the current unit of work (the caller opens one around the write). */
  record(event: NewAuditEvent): Promise<string> {
    return this.events.append(event);
  }

  /** Removes the events older than the retention; none when events are kept forever. */
  async purge(): Promise<number> {
    if (this.settings.retentionDays === null) return 0;
    return this.events.purgeBefore(new Date(this.clock.now().getTime() - this.settings.retentionDays * 86_400_000));
  }

  /** Set once at start from the API's routes. */
  setApiActions(actions: AuditAction[]): void {
    this.apiActions = [...actions].sort((a, b) => a.id.localeCompare(b.id));
  }

  async actions(actor: Actor, organizationId: string): Promise<AuditAction[]> {
    await this.access.require(organizationId, actor, 'admin');
    return [...this.apiActions, ...CLI_ACTIONS];
  }

  async list(actor: Actor, organizationId: string, filter: AuditEventFilter, page: PageRequest): Promise<Page<AuditEvent>> {
    await this.access.require(organizationId, actor, 'admin');
    return this.events.list(organizationId, filter, page);
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<AuditEvent> {
    await this.access.require(organizationId, actor, 'admin');
    const event = await this.events.get(organizationId, id);
    if (!event) throw new NotFoundError('Audit event', id);
    return event;
  }
}
