import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/** The domain events this context publishes: `conversations.processed` `{conversations}`, `agent-instructions.updated` `{}`. */
export const CONVERSATION_EVENT_TYPES = ['conversations.processed', 'agent-instructions.updated'] as const;
export type ConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number];

/** Publishes this context's events after the unit of work commits (ContextEvents in the kernel). */
@Injectable()
export class ConversationEvents extends ContextEvents<ConversationEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
