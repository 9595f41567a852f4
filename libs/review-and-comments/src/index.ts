// The public surface of the review-and-comments context. Other contexts import only this file.
export { ReviewAndCommentsModule } from './review-and-comments.module';
export { ChangeRequestsService } from './application/change-requests.service';
export type { ChangeRequest } from './domain/change-request';
