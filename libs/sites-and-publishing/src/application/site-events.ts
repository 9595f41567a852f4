import { Injectable } from '@nestjs/common';
import { Clock, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/** The domain events this context publishes (docs/adding-a-context.md §4b). `data` holds ids only. */
export const SITE_EVENT_TYPES = [
  'site.created',
  'site.updated',
  'site.deleted',
  'site.published',
  'site.unpublished',
  'site.structure-changed',
  'site.share-link-created',
  'site.share-link-updated',
  'site.share-link-deleted',
] as const;
export type SiteEventType = (typeof SITE_EVENT_TYPES)[number];

@Injectable()
export class SiteEvents {
  constructor(
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Publishes once the current unit of work commits (at once outside one; never on rollback). */
  publish(type: SiteEventType, organizationId: string, actor: string | null, data: Record<string, unknown>): void {
    const event = { type, organizationId, occurredAt: this.clock.now(), actor, data };
    this.uow.afterCommit(() => this.events.publish(event));
  }
}
