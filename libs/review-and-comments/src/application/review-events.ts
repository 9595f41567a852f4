import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

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

/** Publishes this context's events after the unit of work commits (ContextEvents in the kernel). */
@Injectable()
export class ReviewEvents extends ContextEvents<ReviewEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
