// The public surface of the review-and-comments context. Other contexts import only this file.
export { ReviewAndCommentsModule } from './review-and-comments.module';
export { REVIEW_EVENT_TYPES } from './application/review-events';
export type { ReviewEventType } from './application/review-events';
export { ChangeRequestsService } from './application/change-requests.service';
// Its provider of the content context's SpaceLifecycle port (the app composes the providers).
export { ReviewSpaceLifecycle } from './infrastructure/space-lifecycle.adapter';
// The port itself, for tests that intercept a write (other contexts use ChangeRequestsService).
export { ChangeRequestRepository } from './domain/change-request';
export type { ChangeRequest } from './domain/change-request';
