import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/**
 * The space events this context publishes, `data` `{spaceId}` (`space.created` from a duplicate also has
 * `duplicateOf`): created, updated (title, emoji, visibility, edit mode, moved …), deleted (restorable),
 * restored. Webhooks can subscribe to these.
 */
export const SPACE_EVENT_TYPES = ['space.created', 'space.updated', 'space.deleted', 'space.restored'] as const;
export type SpaceEventType = (typeof SPACE_EVENT_TYPES)[number];

/**
 * What else happens to a space's state, for the contexts that keep rows per space (review, sites) and
 * follow it in the same unit of work as recorders of the bus (`DomainEvents.addRecorder`); not offered
 * to webhooks:
 * - `space.transferred` `{spaceId, fromOrganizationId, toOrganizationId}` (organizationId: the old one);
 * - `space.purged` `{spaceIds}` (removed for good, one event per organization);
 * - `space.content-moved` `{spaceId}` (main moved to another revision: a merge, a template, a direct write).
 * With `space.deleted`, `space.restored` and `space.updated` above, they replace the callbacks the
 * content context used to make into the others (it knows none of them).
 */
export const SPACE_STATE_EVENT_TYPES = ['space.transferred', 'space.purged', 'space.content-moved'] as const;
export type SpaceStateEventType = (typeof SPACE_STATE_EVENT_TYPES)[number];

@Injectable()
export class SpaceEvents extends ContextEvents<SpaceEventType | SpaceStateEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
