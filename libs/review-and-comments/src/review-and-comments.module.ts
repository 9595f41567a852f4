import { ContentByUrlController } from './http/content-by-url.controller';
import { SpaceExportsController } from './http/space-exports.controller';
import { Module } from '@nestjs/common';
import { ConversationsModule } from '@app/conversations';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { ReviewFollowsSpaces } from './infrastructure/review-follows-spaces';
import { ChangeRequestOrigins, ChangeRequestPresenter } from './http/change-request-presenter';
import { ChangeRequestsService } from './application/change-requests.service';
import { ChangeRequestRepository } from './domain/change-request';
import { ChangeRequestsController } from './http/change-requests.controller';
import { SqlChangeRequestRepository } from './infrastructure/change-requests.repository';
import { CommentsService } from './application/comments.service';
import { CommentRepository } from './domain/comment';
import { ChangeRequestCommentsController, SpaceCommentsController } from './http/comments.controller';
import { PeopleAroundContentController } from './http/people-around-content.controller';
import { SqlCommentRepository } from './infrastructure/comments.repository';
import { ReviewsService } from './application/reviews.service';
import { ReviewRepository } from './domain/review';
import { ReviewsController } from './http/reviews.controller';
import { OrganizationChangeRequestsController } from './http/organization-change-requests.controller';
import { SqlReviewRepository } from './infrastructure/reviews.repository';
import { ExportsService } from './application/exports.service';
import { ReviewEvents } from './application/review-events';
import { RenderedLists } from '@app/http-kit';
import { PdfRenderer } from './domain/export';
import { PdfkitRenderer } from './infrastructure/pdfkit-renderer';
import { AccessModule } from '@app/access';
import { SpaceRevisionsController } from './http/space-revisions.controller';

/**
 * Change requests, comments, reviews and PDF exports, and the revision reads that show the change
 * request a merge came from (SpaceRevisionsController). Change requests,
 * comments and reviews follow their space by recording the space events (ReviewFollowsSpaces).
 */
@Module({
  imports: [AccessModule, SpacesAndContentModule, OrganizationsAndTeamsModule, ConversationsModule],
  controllers: [
    SpaceRevisionsController,
    ChangeRequestsController,
    OrganizationChangeRequestsController,
    SpaceCommentsController,
    PeopleAroundContentController,
    ChangeRequestCommentsController,
    ReviewsController,
    SpaceExportsController,
    ContentByUrlController,
  ],
  providers: [
    ChangeRequestsService,
    CommentsService,
    ReviewsService,
    ExportsService,
    ReviewEvents,
    RenderedLists,
    { provide: PdfRenderer, useClass: PdfkitRenderer },
    { provide: CommentRepository, useClass: SqlCommentRepository },
    { provide: ReviewRepository, useClass: SqlReviewRepository },
    ChangeRequestPresenter,
    { provide: ChangeRequestRepository, useClass: SqlChangeRequestRepository },
    ChangeRequestOrigins,
    ReviewFollowsSpaces,
  ],
  exports: [ChangeRequestsService, ChangeRequestPresenter],
})
export class ReviewAndCommentsModule {}
