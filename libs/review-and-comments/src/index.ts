// The public surface of the review-and-comments context. Other contexts import only this file.
export { ReviewAndCommentsModule } from './review-and-comments.module';
export { REVIEW_EVENT_TYPES } from './application/review-events';
export type { ReviewEventType } from './application/review-events';
export { ChangeRequestsService } from './application/change-requests.service';
export type { ChangeRequestView } from './application/change-requests.service';
// The official ChangeRequest object, for a controller of another context that answers one (site insights' topics).
export { ChangeRequestPresenter } from './http/change-request-presenter';
// The port itself, for tests that intercept a write (other contexts use ChangeRequestsService).
export { ChangeRequestRepository } from './domain/change-request';
export type { ChangeRequest } from './domain/change-request';
