import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, Clock, Page } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  ListOf,
  listEnvelope,
  Links,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { IdentityService } from '@app/organizations-and-teams';
import { CommentsService, CommentView, Where } from '../application/comments.service';
import {
  CommentDto,
  CommentFormatQueryDto,
  CommentReplyDto,
  ListCommentsQueryDto,
  ListRepliesQueryDto,
  PostCommentDto,
  PostReplyDto,
  toCommentDto,
  UpdateCommentDto,
  UpdateReplyDto,
  usersOf,
} from './comment.dto';
import { userDtos } from './user-dtos';
import { RenderedLists } from '@app/http-kit';

interface PathParams {
  spaceId: string;
  changeRequestId?: string;
  commentId?: string;
  commentReplyId?: string;
}

/**
 * The comment operations of spec part 2 §4.8 (on a space) and §4.9 (on a change request): one
 * controller class per place, built from one definition (same parameters, bodies and answers; only
 * the path and the official operationIds differ).
 */
function commentsController(place: 'Space' | 'ChangeRequest', path: string): Type<unknown> {
  const op = (verb: string, what: 'Comment' | 'Comments' | 'CommentReply' | 'CommentReplies') => `${verb}${what}In${place}`;
  const where = (p: PathParams): Where => ({
    spaceId: p.spaceId,
    changeRequest: place === 'ChangeRequest' ? p.changeRequestId : undefined,
  });
  // `@Param()` takes the path parameters at once (the two places have different ones): documented here.
  const params =
    (...more: ('commentId' | 'commentReplyId')[]) =>
    (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
      ApiParam({ name: 'spaceId', type: String })(target, key, descriptor);
      if (place === 'ChangeRequest')
        ApiParam({ name: 'changeRequestId', type: String, description: 'id or number' })(target, key, descriptor);
      for (const name of more) ApiParam({ name, type: String })(target, key, descriptor);
    };

  @ApiTags('comments')
  @ApiStandardErrors()
  @ApiExtraModels(CommentDto, CommentReplyDto)
  @Controller(path)
  class CommentsController {
    constructor(
      readonly comments: CommentsService,
      readonly identity: IdentityService,
      readonly cache: RenderedLists,
      readonly clock: Clock,
    ) {}

    async dto(v: CommentView, format: 'document' | 'markdown' | undefined, links: Links) {
      return toCommentDto(v, format, userDtos(await this.identity.usersByIds(usersOf([v])), links), links);
    }

    async page(page: Page<CommentView>, format: 'document' | 'markdown' | undefined, links: Links) {
      const users = await this.identity.usersByIds(usersOf(page.items));
      const user = userDtos(users, links);
      return listEnvelope(page, (v) => toCommentDto(v, format, user, links));
    }

    @Get()
    @params()
    @ApiOperation({ operationId: op('list', 'Comments'), summary: 'List comments (newest first by default)' })
    @ApiOkResponse({ type: ListOf(CommentDto) })
    async list(
      @CurrentActor() actor: Actor,
      @Param() p: PathParams,
      @Query() q: ListCommentsQueryDto,
      @RequestLinks() links: Links,
      @Res() res: Response,
    ): Promise<void> {
      const minute = Math.floor(this.clock.now().getTime() / 60_000);
      const key = [await this.comments.listKey(actor, where(p)), JSON.stringify(q), links.origin, links.appOrigin, minute].join(' ');
      const body = await this.cache.get(key, async () => {
        const page = await this.comments.list(
          actor,
          where(p),
          { order: q.order ?? 'desc', status: q.status === 'all' ? undefined : q.status, targetPage: q.targetPage, authors: q.authors },
          q.toPageRequest(),
        );
        return this.page(page, q.format, links);
      });
      res.type('application/json').send(body);
    }

    @WriteTransaction()
    @Post()
    @HttpCode(200)
    @params()
    @ApiOperation({ operationId: op('post', 'Comment'), summary: 'Post a comment (the "comment" role or higher)' })
    @ApiOkResponse({ type: CommentDto })
    async post(@CurrentActor() actor: Actor, @Param() p: PathParams, @Body() body: PostCommentDto, @RequestLinks() links: Links) {
      return this.dto(await this.comments.post(actor, where(p), body), undefined, links);
    }

    @Get(':commentId')
    @params('commentId')
    @ApiOperation({ operationId: op('get', 'Comment'), summary: 'Get a comment' })
    @ApiOkResponse({ type: CommentDto })
    async get(@CurrentActor() actor: Actor, @Param() p: PathParams, @Query() q: CommentFormatQueryDto, @RequestLinks() links: Links) {
      return this.dto(await this.comments.get(actor, where(p), p.commentId!), q.format, links);
    }

    @WriteTransaction()
    @Put(':commentId')
    @params('commentId')
    @ApiOperation({
      operationId: op('update', 'Comment'),
      summary: 'Resolve or reopen, edit the body (the author), add or remove reactions',
    })
    @ApiOkResponse({ type: CommentDto })
    async update(@CurrentActor() actor: Actor, @Param() p: PathParams, @Body() body: UpdateCommentDto, @RequestLinks() links: Links) {
      return this.dto(await this.comments.update(actor, where(p), p.commentId!, body), undefined, links);
    }

    @WriteTransaction()
    @Delete(':commentId')
    @params('commentId')
    @ApiDeleteOperation(op('delete', 'Comment'), 'Delete a comment and its replies (the author or an admin)', 'The comment')
    async delete(@CurrentActor() actor: Actor, @Param() p: PathParams, @Res({ passthrough: true }) res: Response): Promise<void> {
      setDeleteStatus(res, await this.comments.delete(actor, where(p), p.commentId!));
    }

    @Get(':commentId/replies')
    @params('commentId')
    @ApiOperation({ operationId: op('list', 'CommentReplies'), summary: 'List the replies of a comment (oldest first)' })
    @ApiOkResponse({ type: ListOf(CommentReplyDto) })
    async listReplies(@CurrentActor() actor: Actor, @Param() p: PathParams, @Query() q: ListRepliesQueryDto, @RequestLinks() links: Links) {
      return this.page(await this.comments.listReplies(actor, where(p), p.commentId!, q.toPageRequest()), q.format, links);
    }

    @WriteTransaction()
    @Post(':commentId/replies')
    @HttpCode(200)
    @params('commentId')
    @ApiOperation({ operationId: op('post', 'CommentReply'), summary: 'Reply to a comment (the "comment" role or higher)' })
    @ApiOkResponse({ type: CommentReplyDto })
    async reply(
      @CurrentActor() actor: Actor,
      @Param() p: PathParams,
      @Body() body: PostReplyDto,
      @Query() q: CommentFormatQueryDto,
      @RequestLinks() links: Links,
    ) {
      return this.dto(await this.comments.reply(actor, where(p), p.commentId!, body.body), q.format, links);
    }

    @Get(':commentId/replies/:commentReplyId')
    @params('commentId', 'commentReplyId')
    @ApiOperation({ operationId: op('get', 'CommentReply'), summary: 'Get a reply' })
    @ApiOkResponse({ type: CommentReplyDto })
    async getReply(@CurrentActor() actor: Actor, @Param() p: PathParams, @Query() q: CommentFormatQueryDto, @RequestLinks() links: Links) {
      return this.dto(await this.comments.getReply(actor, where(p), p.commentId!, p.commentReplyId!), q.format, links);
    }

    @WriteTransaction()
    @Put(':commentId/replies/:commentReplyId')
    @params('commentId', 'commentReplyId')
    @ApiOperation({ operationId: op('update', 'CommentReply'), summary: 'Edit a reply (the author), add or remove reactions' })
    @ApiOkResponse({ type: CommentReplyDto })
    async updateReply(@CurrentActor() actor: Actor, @Param() p: PathParams, @Body() body: UpdateReplyDto, @RequestLinks() links: Links) {
      return this.dto(await this.comments.update(actor, where(p), p.commentReplyId!, body, p.commentId), undefined, links);
    }

    @WriteTransaction()
    @Delete(':commentId/replies/:commentReplyId')
    @params('commentId', 'commentReplyId')
    @ApiDeleteOperation(op('delete', 'CommentReply'), 'Delete a reply (the author or an admin)', 'The reply')
    async deleteReply(@CurrentActor() actor: Actor, @Param() p: PathParams, @Res({ passthrough: true }) res: Response): Promise<void> {
      setDeleteStatus(res, await this.comments.delete(actor, where(p), p.commentReplyId!, p.commentId));
    }
  }
  Object.defineProperty(CommentsController, 'name', { value: `${place}CommentsController` });
  return CommentsController;
}

export const SpaceCommentsController = commentsController('Space', 'spaces/:spaceId/comments');
export const ChangeRequestCommentsController = commentsController(
  'ChangeRequest',
  'spaces/:spaceId/change-requests/:changeRequestId/comments',
);
