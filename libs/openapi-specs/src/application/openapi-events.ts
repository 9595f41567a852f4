import { Injectable } from '@nestjs/common';
import { Clock, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/** The domain events this context publishes (docs/adding-a-context.md §4b). */
export const OPENAPI_EVENT_TYPES = [
  'openapi-spec.created',
  'openapi-spec.source-changed',
  'openapi-spec.visibility-changed',
  'openapi-spec.deleted',
  'openapi-spec.processed',
] as const;
export type OpenApiEventType = (typeof OPENAPI_EVENT_TYPES)[number];

@Injectable()
export class OpenApiEvents {
  constructor(
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  publish(type: OpenApiEventType, organizationId: string, actor: string | null, data: Record<string, unknown>): void {
    const event = { type, organizationId, occurredAt: this.clock.now(), actor, data };
    this.uow.afterCommit(() => this.events.publish(event));
  }
}
