import { Injectable } from '@nestjs/common';
import { Clock, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/**
 * The domain events this context publishes (on the in-process bus, after the write commits):
 * - `comment.created`, `comment.replied`, `comment.resolved`, `comment.reopened`
 *   `{spaceId, changeRequestId (null on a space), commentId, replyId?}`
 * - `review.submitted` `{spaceId, changeRequestId, reviewId, status}`
 * - `change-request.created` and `change-request.status-changed` `{spaceId, changeRequestId, number, from, to}`
 *   (a merge is a change to `merged`)
 */
export const REVIEW_EVENT_TYPES = [
  'comment.created',
  'comment.replied',
  'comment.resolved',
  'comment.reopened',
  'review.submitted',
  'change-request.created',
  'change-request.status-changed',
] as const;
export type ReviewEventType = (typeof REVIEW_EVENT_TYPES)[number];

@Injectable()
export class ReviewEvents {
  constructor(
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Publishes once the current unit of work commits (at once outside one; never on rollback). */
  publish(type: ReviewEventType, organizationId: string, actor: string | null, data: Record<string, unknown>): void {
    const event = { type, organizationId, occurredAt: this.clock.now(), actor, data };
    this.uow.afterCommit(() => this.events.publish(event));
  }
}
