import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  UnitOfWork,
  untilWritten,
} from '@app/shared-kernel';
import { ContentService, Space, SpacesService } from '@app/spaces-and-content';
import { checkDocumentInput, JsonDocument, markdownToDocument } from '@app/content-model';
import {
  checkEmojis,
  Comment,
  COMMENT_MARKDOWN_MAX,
  CommentBody,
  Commenter,
  COMMENTERS_MAX,
  CommentFilter,
  commentPermissions,
  CommentRepository,
  Reaction,
  ReplyStats,
  Thread,
  withResolved,
} from '../domain/comment';
import { ChangeRequestsService } from './change-requests.service';
import { ReviewEvents } from './review-events';

/** A comment's body as written: the markdown form, or the JSON document form (official `Document`). */
export interface BodyInput {
  markdown?: string;
  document?: object;
}

export interface CommentInput {
  body: BodyInput;
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
  /** Set by a review submitted with a comment (not a request field). */
  review?: string;
}

export interface CommentPatch {
  resolved?: boolean;
  body?: BodyInput;
  addedReactions?: string[];
  removedReactions?: string[];
}

/** A comment or reply with what its wire shape needs. */
export interface CommentView {
  comment: Comment;
  reactions: Reaction[];
  /** null for a reply. */
  replies: ReplyStats | null;
  role: Role;
  userId: string;
}

/** Where a request's comments live: the space, or one of its change requests (by id or number). */
export interface Where {
  spaceId: string;
  changeRequest?: string;
}

interface Scope {
  thread: Thread;
  space: Space;
  role: Role;
  /** The head the comments of the thread target. */
  revision: string;
}

function hasNode(nodes: unknown, key: string): boolean {
  if (!Array.isArray(nodes)) return false;
  return nodes.some(
    (n: { key?: unknown; nodes?: unknown; fragments?: unknown }) => n?.key === key || hasNode(n?.nodes, key) || hasNode(n?.fragments, key),
  );
}

/** Comments and replies on spaces and change requests (spec part 2 §4.8, §4.9). */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentRepository,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly events: ReviewEvents,
  ) {}

  private async scope(actor: Actor, where: Where): Promise<Scope> {
    if (where.changeRequest === undefined) {
      const { space, role } = await this.spaces.getLive(actor, where.spaceId);
      return { thread: { spaceId: space.id, changeRequestId: null }, space, role, revision: space.revision };
    }
    const v = await this.changeRequests.view(actor, where.spaceId, where.changeRequest);
    return {
      thread: { spaceId: v.space.id, changeRequestId: v.changeRequest.id },
      space: v.space,
      role: v.role,
      revision: v.changeRequest.revision,
    };
  }

  private body(input: BodyInput): CommentBody {
    if ((input.markdown === undefined) === (input.document === undefined))
      throw new InvalidInputError('body: give exactly one of markdown or document');
    if (input.markdown !== undefined) {
      if (input.markdown.length > COMMENT_MARKDOWN_MAX)
        throw new InvalidInputError(`body.markdown: at most ${COMMENT_MARKDOWN_MAX} characters`);
      return { document: markdownToDocument(input.markdown).document, markdown: input.markdown };
    }
    const checked = checkDocumentInput(input.document, 'body.document', COMMENT_MARKDOWN_MAX);
    return { document: checked.document, markdown: checked.markdown };
  }

  private requireComment(role: Role): void {
    if (!commentPermissions({ postedBy: '' }, '', role).reply) throw new ForbiddenError('Commenting needs the "comment" role on the space');
  }

  private async views(items: Comment[], s: Scope, actor: Actor): Promise<CommentView[]> {
    const ids = items.map((c) => c.id);
    const [reactions, replies] = await Promise.all([
      this.comments.reactions(ids),
      this.comments.replyStats(items.filter((c) => c.parentId === null).map((c) => c.id)),
    ]);
    return items.map((comment) => ({
      comment,
      reactions: reactions.get(comment.id) ?? [],
      replies: comment.parentId === null ? (replies.get(comment.id) ?? { count: 0, repliers: [] }) : null,
      role: s.role,
      userId: actor.userId,
    }));
  }

  private async one(actor: Actor, s: Scope, comment: Comment): Promise<CommentView> {
    return (await this.views([comment], s, actor))[0];
  }

  /** Keeps the open-comment counts of the space or the change request right (after the write committed). */
  private async recount(thread: Thread): Promise<void> {
    if (thread.changeRequestId) return this.comments.recountChangeRequest(thread.changeRequestId);
    await this.uow.run(async () => {
      await this.content.setCommentCount(thread.spaceId, await this.comments.countOpenOnSpaceLocked(thread.spaceId));
    });
  }

  private async found(s: Scope, id: string, parentId: string | null): Promise<Comment> {
    const c = await this.comments.find(s.thread, id, parentId);
    if (!c) throw new NotFoundError(parentId ? 'Reply' : 'Comment', id);
    return c;
  }

  /**
   * What a rendered list of the thread depends on besides its query: the thread's version (bumped by
   * every write to its comments, replies and reactions) and who asks (their permissions are in it).
   */
  async listKey(actor: Actor, where: Where): Promise<string> {
    const s = await this.scope(actor, where);
    return [s.thread.spaceId, s.thread.changeRequestId ?? '', await this.comments.version(s.thread), actor.userId, s.role].join(' ');
  }

  async list(actor: Actor, where: Where, filter: CommentFilter, page: PageRequest): Promise<Page<CommentView>> {
    const s = await this.scope(actor, where);
    const result = await this.comments.list(s.thread, filter, page);
    return { ...result, items: await this.views(result.items, s, actor) };
  }

  /**
   * Who posted comments or replies in the space (its own thread, not its change requests') or in one change
   * request, for readers of it: each with how many posts and when last, in the order they first posted.
   */
  async commenters(actor: Actor, where: Where): Promise<{ organizationId: string; commenters: Commenter[] }> {
    const s = await this.scope(actor, where);
    return { organizationId: s.space.organizationId, commenters: await this.comments.commenters(s.thread, COMMENTERS_MAX) };
  }

  /** Comments of the thread by id (those not there are left out). */
  async getMany(actor: Actor, where: Where, ids: string[]): Promise<Map<string, CommentView>> {
    if (!ids.length) return new Map();
    const s = await this.scope(actor, where);
    return new Map((await this.views(await this.comments.findMany(s.thread, ids), s, actor)).map((v) => [v.comment.id, v]));
  }

  async get(actor: Actor, where: Where, id: string): Promise<CommentView> {
    const s = await this.scope(actor, where);
    return this.one(actor, s, await this.found(s, id, null));
  }

  async post(actor: Actor, where: Where, input: CommentInput): Promise<CommentView> {
    const s = await this.scope(actor, where);
    this.requireComment(s.role);
    if (input.node !== undefined && input.page === undefined)
      throw new InvalidInputError('node: a node is addressed within a page (give page too)');
    if (input.tableCell !== undefined && input.node === undefined)
      throw new InvalidInputError('tableCell: a table cell is addressed within a node (give node too)');
    if (input.page !== undefined) {
      let found: { document: JsonDocument | null };
      try {
        found = await this.content.page(s.space, s.revision, input.page);
      } catch (e) {
        if (e instanceof NotFoundError) throw new InvalidInputError(`page: no page "${input.page}" in the content commented on`);
        throw e;
      }
      if (input.node !== undefined && !hasNode(found.document?.nodes, input.node))
        throw new InvalidInputError(`node: no node "${input.node}" in page "${input.page}"`);
    }
    const comment: Comment = {
      id: this.ids.next(),
      organizationId: s.space.organizationId,
      spaceId: s.space.id,
      changeRequestId: s.thread.changeRequestId,
      parentId: null,
      body: this.body(input.body),
      postedBy: actor.userId,
      postedAt: this.clock.now(),
      editedAt: null,
      target: {
        page: input.page ?? null,
        node: input.node ?? null,
        tableCell: input.tableCell ?? null,
        review: input.review ?? null,
        revision: s.revision,
      },
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
    };
    await this.comments.insert(comment);
    await this.comments.bump(s.thread);
    await this.recount(s.thread);
    this.events.publish('comment.created', comment.organizationId, actor.userId, {
      spaceId: comment.spaceId,
      changeRequestId: comment.changeRequestId,
      commentId: comment.id,
    });
    return this.one(actor, s, comment);
  }

  /** PUT: resolve/reopen, edit the body (the author), react; only what changed is written. */
  async update(actor: Actor, where: Where, id: string, patch: CommentPatch, parentId: string | null = null): Promise<CommentView> {
    const s = await this.scope(actor, where);
    if (parentId) await this.found(s, parentId, null);
    checkEmojis(patch.addedReactions ?? [], 'addedReactions');
    checkEmojis(patch.removedReactions ?? [], 'removedReactions');
    const body = patch.body === undefined ? undefined : this.body(patch.body);
    const { before, after } = await untilWritten(async () => {
      const before = await this.found(s, id, parentId);
      const may = commentPermissions(before, actor.userId, s.role);
      let after = before;
      if (body !== undefined) {
        if (!may.edit) throw new ForbiddenError('Only the author edits a comment');
        after = { ...after, body, editedAt: this.clock.now() };
      }
      if (patch.resolved !== undefined) {
        if (!may.reply) throw new ForbiddenError('Resolving needs the "comment" role on the space');
        after = withResolved(after, patch.resolved, actor.userId, this.clock.now());
      }
      if ((patch.addedReactions?.length || patch.removedReactions?.length) && !may.reply)
        throw new ForbiddenError('Reacting needs the "comment" role on the space');
      return (await this.comments.update(before, after)) ? { before, after } : undefined;
    }, 'The comment');
    if (patch.addedReactions?.length || patch.removedReactions?.length)
      await this.comments.react(id, actor.userId, patch.addedReactions ?? [], patch.removedReactions ?? [], this.clock.now());
    await this.comments.bump(s.thread);
    if (after.status !== before.status) {
      await this.recount(s.thread);
      this.events.publish(after.status === 'resolved' ? 'comment.resolved' : 'comment.reopened', after.organizationId, actor.userId, {
        spaceId: after.spaceId,
        changeRequestId: after.changeRequestId,
        commentId: after.id,
      });
    }
    return this.one(actor, s, after);
  }

  /** Deletes a comment (its replies and reactions with it) or a reply; nothing to do when it is not there. */
  async delete(actor: Actor, where: Where, id: string, parentId: string | null = null): Promise<'deleted' | 'absent'> {
    let s: Scope;
    try {
      s = await this.scope(actor, where);
    } catch (e) {
      // A space or change request the caller cannot see: as if the comment were absent (nothing is deleted).
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    if (parentId && !(await this.comments.find(s.thread, parentId, null))) return 'absent';
    const c = await this.comments.find(s.thread, id, parentId);
    if (!c) return 'absent';
    if (!commentPermissions(c, actor.userId, s.role).delete) throw new ForbiddenError('Only the author or an admin deletes a comment');
    const deleted = await this.comments.delete(c.id);
    await this.comments.bump(s.thread);
    if (!parentId) await this.recount(s.thread);
    return deleted ? 'deleted' : 'absent';
  }

  async listReplies(actor: Actor, where: Where, commentId: string, page: PageRequest): Promise<Page<CommentView>> {
    const s = await this.scope(actor, where);
    await this.found(s, commentId, null);
    const result = await this.comments.listReplies(commentId, page);
    return { ...result, items: await this.views(result.items, s, actor) };
  }

  async getReply(actor: Actor, where: Where, commentId: string, id: string): Promise<CommentView> {
    const s = await this.scope(actor, where);
    await this.found(s, commentId, null);
    return this.one(actor, s, await this.found(s, id, commentId));
  }

  async reply(actor: Actor, where: Where, commentId: string, body: BodyInput): Promise<CommentView> {
    const s = await this.scope(actor, where);
    this.requireComment(s.role);
    const parent = await this.found(s, commentId, null);
    const reply: Comment = {
      ...parent,
      id: this.ids.next(),
      parentId: parent.id,
      body: this.body(body),
      postedBy: actor.userId,
      postedAt: this.clock.now(),
      editedAt: null,
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
    };
    await this.comments.insert(reply);
    await this.comments.bump(s.thread);
    this.events.publish('comment.replied', reply.organizationId, actor.userId, {
      spaceId: reply.spaceId,
      changeRequestId: reply.changeRequestId,
      commentId: parent.id,
      replyId: reply.id,
    });
    return this.one(actor, s, reply);
  }
}
