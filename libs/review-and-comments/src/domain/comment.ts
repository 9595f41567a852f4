import { InvalidInputError, Page, PageRequest, Role, roleAtLeast } from '@app/shared-kernel';

/**
 * Comments and replies (spec part 2 §2.7). A comment belongs to a space, or to a change request of the
 * space; a reply belongs to a comment (`parentId`) and carries no target or status of its own.
 */

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** Limits of what a comment holds (documented in docs/conventions.md). */
export const COMMENT_MARKDOWN_MAX = 100_000;
export const EMOJI_MAX = 32;
export const REACTIONS_PER_REQUEST_MAX = 20;

/** A comment's body: the JSON document and its markdown (rendered once, when written). */
export interface CommentBody {
  document: object;
  markdown: string;
}

export interface CommentTarget {
  page: string | null;
  node: string | null;
  tableCell: { record: string; definition: string } | null;
  /** The review the comment was posted with (a change request's review). */
  review: string | null;
  /** The revision in which the target can be found (the space's or the change request's head when posted). */
  revision: string;
}

export interface Comment {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  /** null for a comment; the comment's id for a reply. */
  parentId: string | null;
  body: CommentBody;
  postedBy: string;
  postedAt: Date;
  editedAt: Date | null;
  target: CommentTarget;
  status: CommentStatus;
  resolvedAt: Date | null;
  resolvedBy: string | null;
}

export interface Reaction {
  emoji: string;
  userId: string;
  reactedAt: Date;
}

/** Replies of a comment: how many, and per replier how many and when last. */
export interface ReplyStats {
  count: number;
  repliers: { userId: string; count: number; updatedAt: Date }[];
}

/** An author of a thread's comments or replies. */
export interface Commenter {
  userId: string;
  count: number;
  updatedAt: Date;
  /** The position of their first post in the thread (a stable key: deleting others' posts does not move it). */
  first: number;
}

/** At most this many commenters of one thread are read (a space's commenters are its organization's members). */
export const COMMENTERS_MAX = 10_000;

/** Where comments live: the space itself, or one change request of it. */
export interface Thread {
  spaceId: string;
  changeRequestId: string | null;
}

export interface CommentFilter {
  status?: CommentStatus;
  targetPage?: string;
  authors?: string[];
  order: 'asc' | 'desc';
}

export abstract class CommentRepository {
  abstract insert(comment: Comment): Promise<void>;
  /** A comment (parentId null) of the thread, or a reply of `parentId`. */
  abstract find(thread: Thread, id: string, parentId: string | null): Promise<Comment | null>;
  /** Comments (not replies) of the thread with these ids. */
  abstract findMany(thread: Thread, ids: string[]): Promise<Comment[]>;
  abstract list(thread: Thread, filter: CommentFilter, page: PageRequest): Promise<Page<Comment>>;
  abstract listReplies(parentId: string, page: PageRequest): Promise<Page<Comment>>;
  /** Writes what changed if the row still holds `before` (editedAt and status as the guard). */
  abstract update(before: Comment, after: Comment): Promise<boolean>;
  /** Deletes a comment (with its replies and reactions) or a reply; false when it was not there. */
  abstract delete(id: string): Promise<boolean>;
  abstract reactions(ids: string[]): Promise<Map<string, Reaction[]>>;
  /** One reaction per (comment, user, emoji): adding one twice keeps the first. */
  abstract react(id: string, userId: string, added: string[], removed: string[], at: Date): Promise<void>;
  abstract replyStats(ids: string[]): Promise<Map<string, ReplyStats>>;
  /** Marks a change to the thread's comments, replies or reactions (what rendered lists are cached by). */
  abstract bump(thread: Thread): Promise<void>;
  /** The thread's version (0 before any write). */
  abstract version(thread: Thread): Promise<number>;
  /**
   * Who posted in the thread (comments and their replies): each author with how many they posted and when last,
   * in the order of their first post, at most `max`.
   */
  abstract commenters(thread: Thread, max: number): Promise<Commenter[]>;
  /** Recounts the open comments of a change request (one statement: it sees every committed write). */
  abstract recountChangeRequest(changeRequestId: string): Promise<void>;
  /** Open comments on the space itself, counted under a lock that makes recounts of one space take turns. */
  abstract countOpenOnSpaceLocked(spaceId: string): Promise<number>;
}

export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

/**
 * Who may do what (docs/permissions.md): everyone who reads the space views; the `comment` role and
 * above post, reply, react and resolve; the author edits; the author and space admins delete.
 */
export function commentPermissions(c: Pick<Comment, 'postedBy'>, userId: string, role: Role): CommentPermissions {
  const author = c.postedBy === userId;
  return {
    view: true,
    edit: author && roleAtLeast(role, 'comment'),
    reply: roleAtLeast(role, 'comment'),
    delete: (author && roleAtLeast(role, 'comment')) || roleAtLeast(role, 'admin'),
  };
}

/** Resolving sets status, resolvedAt and resolvedBy; reopening clears them. */
export function withResolved(c: Comment, resolved: boolean, userId: string, at: Date): Comment {
  if (c.parentId) throw new InvalidInputError('A reply has no status: resolve its comment');
  if (resolved === (c.status === 'resolved')) return c;
  return resolved
    ? { ...c, status: 'resolved', resolvedAt: at, resolvedBy: userId }
    : { ...c, status: 'open', resolvedAt: null, resolvedBy: null };
}

/** Emoji of a reaction request: non-empty, at most EMOJI_MAX characters, no whitespace or controls. */
export function checkEmojis(emojis: string[], field: string): void {
  if (emojis.length > REACTIONS_PER_REQUEST_MAX)
    throw new InvalidInputError(`${field}: at most ${REACTIONS_PER_REQUEST_MAX} reactions per request`);
  for (const e of emojis)
    if (!e || [...e].length > EMOJI_MAX || /[\s\p{Cc}]/u.test(e)) throw new InvalidInputError(`${field}: "${e}" is not an emoji`);
}
