import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

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

/** Publishes this context's events after the unit of work commits (ContextEvents in the kernel). */
@Injectable()
export class SiteEvents extends ContextEvents<SiteEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
