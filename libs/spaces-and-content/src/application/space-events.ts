import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/**
 * The space events this context publishes, `data` `{spaceId}` (`space.created` from a duplicate also has
 * `duplicateOf`): created, updated (title, emoji, visibility, edit mode, moved …), deleted (restorable),
 * restored.
 */
export const SPACE_EVENT_TYPES = ['space.created', 'space.updated', 'space.deleted', 'space.restored'] as const;
export type SpaceEventType = (typeof SPACE_EVENT_TYPES)[number];

@Injectable()
export class SpaceEvents extends ContextEvents<SpaceEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
