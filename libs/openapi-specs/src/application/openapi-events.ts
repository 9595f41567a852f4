import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/** The domain events this context publishes (docs/adding-a-context.md §4b). */
export const OPENAPI_EVENT_TYPES = [
  'openapi-spec.created',
  'openapi-spec.source-changed',
  'openapi-spec.visibility-changed',
  'openapi-spec.deleted',
  'openapi-spec.processed',
] as const;
export type OpenApiEventType = (typeof OPENAPI_EVENT_TYPES)[number];

/** Publishes this context's events after the unit of work commits (ContextEvents in the kernel). */
@Injectable()
export class OpenApiEvents extends ContextEvents<OpenApiEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
