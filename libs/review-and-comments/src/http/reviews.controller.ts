import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  ListOf,
  listEnvelope,
  Links,
  ListQueryDto,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { IdentityService } from '@app/organizations-and-teams';
import { ReviewsService } from '../application/reviews.service';
import {
  ListReviewsQueryDto,
  RequestedReviewerDto,
  RequestedReviewersDto,
  RequestReviewersDto,
  ReviewDto,
  ReviewFormatQueryDto,
  reviewUsers,
  SubmitReviewDto,
  toRequestedReviewerDto,
  toReviewDto,
} from './review.dto';
import { userDtos } from './user-dtos';

/** Reviews and requested reviewers of a change request (official operations). */
@ApiTags('change-requests')
@ApiStandardErrors()
@Controller('spaces/:spaceId/change-requests/:changeRequestId')
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly identity: IdentityService,
  ) {}

  @Get('reviews')
  @ApiOperation({ operationId: 'getReviewsByChangeRequestId', summary: 'List the reviews of a change request (in submission order)' })
  @ApiOkResponse({ type: ListOf(ReviewDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ListReviewsQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.reviews.list(actor, spaceId, ref, { outdated: q.outdated }, q.toPageRequest());
    const users = await this.identity.usersByIds(reviewUsers(page.items));
    const user = userDtos(users, links);
    return listEnvelope(page, (v) => toReviewDto(v, q.format, user, links));
  }

  @WriteTransaction()
  @Post('reviews')
  @ApiOperation({
    operationId: 'submitChangeRequestReview',
    summary: 'Submit a review (the "review" role; not the author): approve or request changes, optionally with a comment',
  })
  @ApiCreatedResponse({ type: ReviewDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'The change request is merged or archived' })
  async submit(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Body() body: SubmitReviewDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReviewDto> {
    const v = await this.reviews.submit(actor, spaceId, ref, body);
    const dto = toReviewDto(v, undefined, userDtos(await this.identity.usersByIds(reviewUsers([v])), links), links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get('reviews/:reviewId')
  @ApiOperation({ operationId: 'getChangeRequestReviewById', summary: 'Get a review' })
  @ApiOkResponse({ type: ReviewDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('reviewId') reviewId: string,
    @Query() q: ReviewFormatQueryDto,
    @RequestLinks() links: Links,
  ): Promise<ReviewDto> {
    const v = await this.reviews.get(actor, spaceId, ref, reviewId);
    return toReviewDto(v, q.format, userDtos(await this.identity.usersByIds(reviewUsers([v])), links), links);
  }

  @Get('requested-reviewers')
  @ApiOperation({ operationId: 'getRequestedReviewersByChangeRequestId', summary: 'List the pending review requests' })
  @ApiOkResponse({ type: ListOf(RequestedReviewerDto) })
  async requested(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.reviews.requested(actor, spaceId, ref, q.toPageRequest());
    const users = await this.identity.usersByIds(page.items.flatMap((r) => [r.userId, r.requestedBy]));
    const user = userDtos(users, links);
    return listEnvelope(page, (r) => toRequestedReviewerDto(r, user));
  }

  @WriteTransaction()
  @Post('requested-reviewers')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'requestReviewersForChangeRequest',
    summary: 'Ask members to review (the "edit" role); optionally update the subject and description',
  })
  @ApiOkResponse({ type: RequestedReviewersDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'The change request is merged or archived' })
  async request(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Body() body: RequestReviewersDto,
    @RequestLinks() links: Links,
  ): Promise<RequestedReviewersDto> {
    const requests = await this.reviews.request(actor, spaceId, ref, body);
    const users = await this.identity.usersByIds(requests.flatMap((r) => [r.userId, r.requestedBy]));
    const user = userDtos(users, links);
    return { users: requests.map((r) => toRequestedReviewerDto(r, user)) };
  }

  @WriteTransaction()
  @Delete('requested-reviewers/:userId')
  @ApiDeleteOperation('removeRequestedReviewerFromChangeRequest', 'Withdraw a review request (the "edit" role)', 'The review request')
  async remove(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.reviews.removeRequest(actor, spaceId, ref, userId));
  }
}
