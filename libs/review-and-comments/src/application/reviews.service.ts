import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  roleAtLeast,
  UnitOfWork,
} from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import { Review, ReviewRepository, ReviewRequest, ReviewStatus } from '../domain/review';
import { ChangeRequestsService, ChangeRequestView } from './change-requests.service';
import { BodyInput, CommentsService, CommentView } from './comments.service';
import { ReviewEvents } from './review-events';

export interface ReviewView {
  review: Review;
  comment: CommentView | null;
}

export const REVIEWERS_PER_REQUEST_MAX = 50;

/** Reviews and review requests of change requests (official operations). */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly reviews: ReviewRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly comments: CommentsService,
    private readonly spaces: SpacesService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly events: ReviewEvents,
  ) {}

  private async withComments(actor: Actor, v: ChangeRequestView, reviews: Review[]): Promise<ReviewView[]> {
    const where = { spaceId: v.space.id, changeRequest: v.changeRequest.id };
    const comments = await this.comments.getMany(
      actor,
      where,
      reviews.map((r) => r.commentId).filter((id): id is string => id !== null),
    );
    return reviews.map((review) => ({ review, comment: review.commentId ? (comments.get(review.commentId) ?? null) : null }));
  }

  async list(actor: Actor, spaceId: string, ref: string, filter: { outdated?: boolean }, page: PageRequest): Promise<Page<ReviewView>> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const result = await this.reviews.list(v.changeRequest.id, filter, page);
    return { ...result, items: await this.withComments(actor, v, result.items) };
  }

  async get(actor: Actor, spaceId: string, ref: string, id: string): Promise<ReviewView> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const review = await this.reviews.find(v.changeRequest.id, id);
    if (!review) throw new NotFoundError('Review', id);
    return (await this.withComments(actor, v, [review]))[0];
  }

  /**
   * Submits a review against the change request's head: the reviewer's earlier reviews become
   * outdated and their pending request is fulfilled, in one unit of work with the optional comment.
   */
  async submit(actor: Actor, spaceId: string, ref: string, input: { status: ReviewStatus; comment?: BodyInput }): Promise<ReviewView> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const cr = v.changeRequest;
    if (cr.createdBy === actor.userId) throw new ForbiddenError('The author of a change request does not review it');
    if (!roleAtLeast(v.role, 'review')) throw new ForbiddenError('Reviewing needs the "review" role on the space');
    if (cr.status === 'merged' || cr.status === 'archived')
      throw new ConflictError(`Change request #${cr.number} is ${cr.status}: it takes no reviews`);
    const now = this.clock.now();
    const id = this.ids.next();
    // The official Document's empty form (`{}`) is no comment.
    const body =
      input.comment && (input.comment.markdown !== undefined || input.comment.document !== undefined) ? input.comment : undefined;
    const review = await this.uow.run(async () => {
      const request = await this.reviews.takeRequest(cr.id, actor.userId);
      await this.reviews.supersede(cr.id, actor.userId, now);
      const comment = body ? await this.comments.post(actor, { spaceId: v.space.id, changeRequest: cr.id }, { body, review: id }) : null;
      const review: Review = {
        id,
        organizationId: v.space.organizationId,
        spaceId: v.space.id,
        changeRequestId: cr.id,
        reviewer: actor.userId,
        requestedBy: request?.requestedBy ?? null,
        status: input.status,
        revision: cr.revision,
        commentId: comment?.comment.id ?? null,
        outdated: false,
        createdAt: now,
        updatedAt: now,
      };
      await this.reviews.insert(review);
      this.events.publish('review.submitted', review.organizationId, actor.userId, {
        spaceId: review.spaceId,
        changeRequestId: review.changeRequestId,
        reviewId: review.id,
        status: review.status,
      });
      return review;
    });
    return (await this.withComments(actor, v, [review]))[0];
  }

  async requested(actor: Actor, spaceId: string, ref: string, page: PageRequest): Promise<Page<ReviewRequest>> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    return this.reviews.requests(v.changeRequest.id, page);
  }

  /**
   * Asks members to review (again: their earlier reviews become outdated), optionally updating the
   * subject and description. Every user must be able to review the space, and not be the author.
   */
  async request(
    actor: Actor,
    spaceId: string,
    ref: string,
    input: { users: string[]; subject?: string; description?: object },
  ): Promise<ReviewRequest[]> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const cr = v.changeRequest;
    if (!roleAtLeast(v.role, 'edit')) throw new ForbiddenError('Requesting reviews needs the "edit" role on the space');
    if (cr.status === 'merged' || cr.status === 'archived')
      throw new ConflictError(`Change request #${cr.number} is ${cr.status}: it takes no reviews`);
    const users = [...new Set(input.users)];
    if (users.length > REVIEWERS_PER_REQUEST_MAX) throw new InvalidInputError(`users: at most ${REVIEWERS_PER_REQUEST_MAX}`);
    for (const userId of users) {
      if (userId === cr.createdBy) throw new InvalidInputError(`users: ${userId} is the author of the change request`);
      // The role the user has on this space, as they would see it themselves.
      let role;
      try {
        role = (await this.spaces.getLive({ userId, tokenId: '' }, v.space.id)).role;
      } catch (e) {
        if (e instanceof NotFoundError) throw new InvalidInputError(`users: ${userId} is not a member who can see the space`);
        throw e;
      }
      if (!roleAtLeast(role, 'review'))
        throw new InvalidInputError(`users: ${userId} cannot review (needs the "review" role on the space)`);
    }
    const now = this.clock.now();
    const requests = users.map((userId) => ({
      changeRequestId: cr.id,
      userId,
      requestedBy: actor.userId,
      revision: cr.revision,
      createdAt: now,
    }));
    await this.uow.run(async () => {
      if (input.subject !== undefined || input.description !== undefined)
        await this.changeRequests.update(actor, spaceId, cr.id, { subject: input.subject, description: input.description });
      for (const userId of users) await this.reviews.supersede(cr.id, userId, now);
      await this.reviews.request(requests);
    });
    return requests;
  }

  async removeRequest(actor: Actor, spaceId: string, ref: string, userId: string): Promise<'deleted' | 'absent'> {
    let v: ChangeRequestView;
    try {
      v = await this.changeRequests.view(actor, spaceId, ref);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    if (!roleAtLeast(v.role, 'edit')) throw new ForbiddenError('Requesting reviews needs the "edit" role on the space');
    return (await this.reviews.takeRequest(v.changeRequest.id, userId)) ? 'deleted' : 'absent';
  }
}
