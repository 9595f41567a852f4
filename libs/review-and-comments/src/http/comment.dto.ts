import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Links, ListQueryDto, Optional } from '@app/http-kit';
import { CommentView } from '../application/comments.service';
import { COMMENT_MARKDOWN_MAX, commentPermissions, EMOJI_MAX, REACTIONS_PER_REQUEST_MAX } from '../domain/comment';
import { UserDto } from '@app/wire';

const ID_MAX = 200;

/** A comment's body as written: `{markdown}` or `{document}` (the official `Document`), exactly one. */
export class CommentBodyInputDto {
  @ApiPropertyOptional({ description: 'The body as markdown (GFM)', maxLength: COMMENT_MARKDOWN_MAX })
  @ValidateIf((o: CommentBodyInputDto) => o.document === undefined || o.markdown !== undefined)
  @IsString()
  @MaxLength(COMMENT_MARKDOWN_MAX)
  markdown?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The body as a JSON document' })
  @ValidateIf((o: CommentBodyInputDto) => o.markdown === undefined || o.document !== undefined)
  @IsObject()
  document?: object;
}

export class TableCellTargetDto {
  @IsString() @MinLength(1) @MaxLength(ID_MAX) record: string;
  @IsString() @MinLength(1) @MaxLength(ID_MAX) definition: string;
}

export class PostCommentDto {
  /** The node (block key) of the page the comment is attached to */
  @Optional() @IsString() @MinLength(1) @MaxLength(ID_MAX) node?: string;
  /** The page the comment is about */
  @Optional() @IsString() @MinLength(1) @MaxLength(ID_MAX) page?: string;
  @ValidateNested() @Type(() => CommentBodyInputDto) @IsObject() body: CommentBodyInputDto;
  @Optional() @ValidateNested() @Type(() => TableCellTargetDto) @IsObject() tableCell?: TableCellTargetDto;
}

export class PostReplyDto {
  @ValidateNested() @Type(() => CommentBodyInputDto) @IsObject() body: CommentBodyInputDto;
}

export class UpdateReplyDto {
  @Optional() @ValidateNested() @Type(() => CommentBodyInputDto) @IsObject() body?: CommentBodyInputDto;
  /** Emoji to add as the caller's reactions */
  @Optional()
  @IsArray()
  @ArrayMaxSize(REACTIONS_PER_REQUEST_MAX)
  @IsString({ each: true })
  @MaxLength(EMOJI_MAX * 2, { each: true })
  addedReactions?: string[];
  /** Emoji to take back from the caller's reactions */
  @Optional()
  @IsArray()
  @ArrayMaxSize(REACTIONS_PER_REQUEST_MAX)
  @IsString({ each: true })
  @MaxLength(EMOJI_MAX * 2, { each: true })
  removedReactions?: string[];
}

export class UpdateCommentDto extends UpdateReplyDto {
  /** Resolve (true) or reopen (false) the comment */
  @Optional() @IsBoolean() resolved?: boolean;
}

export class CommentFormatQueryDto {
  /** The format of `body` in the response (default `markdown`) */
  @Optional() @IsIn(['document', 'markdown']) format?: 'document' | 'markdown';
}

export class ListRepliesQueryDto extends ListQueryDto {
  @Optional() @IsIn(['document', 'markdown']) format?: 'document' | 'markdown';
}

export class ListCommentsQueryDto extends ListRepliesQueryDto {
  @Optional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
  /** Only comments with this status (default `all`) */
  @Optional() @IsIn(['all', 'open', 'resolved']) status?: 'all' | 'open' | 'resolved';
  /** Only comments on this page */
  @Optional() @IsString() @MinLength(1) @MaxLength(ID_MAX) targetPage?: string;
  /** Only comments by these users (repeat the parameter for several) */
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(ID_MAX, { each: true })
  authors?: string[];
}

// ---------- responses ----------

export class ReactionUserDto {
  user: UserDto;
  @ApiProperty({ format: 'date-time' }) reactedAt: string;
}

export class EmojiReactionDto {
  emoji: string;
  count: number;
  @ApiProperty({ type: [ReactionUserDto] }) users: ReactionUserDto[];
}

export class UserContributorDto {
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  count: number;
  user: UserDto;
}

/** The official `ChangeRequestUserContributor`: a contributor, and whether by edits or by comments. */
export class ChangeRequestUserContributorDto extends UserContributorDto {
  @ApiProperty({ enum: ['edit', 'comment'] }) actionType: 'edit' | 'comment';
}

export class CommentUrlsDto {
  location: string;
}

export class CommentPermissionsDto {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

export class CommentTargetNodeDto {
  id: string;
}

export class CommentTargetDto {
  node?: CommentTargetNodeDto;
  tableCell?: TableCellTargetDto;
  /** The change request the comment was made in */
  changeRequest?: string;
  /** The review the comment was made with */
  review?: string;
  page?: CommentTargetNodeDto;
  space: string;
  /** The revision in which the target can be found (the head when the comment was posted) */
  revision: string;
}

export class CommentBodyDto {
  @ApiPropertyOptional() markdown?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) document?: object;
}

export class CommentReplyDto {
  @ApiProperty({ enum: ['comment-reply'] }) object: 'comment-reply' | 'comment';
  id: string;
  postedBy: UserDto;
  @ApiProperty({ format: 'date-time' }) postedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) editedAt?: string;
  @ApiProperty({ type: [EmojiReactionDto] }) reactions: EmojiReactionDto[];
  body: CommentBodyDto;
  urls: CommentUrlsDto;
  permissions: CommentPermissionsDto;
}

export class CommentDto extends CommentReplyDto {
  @ApiProperty({ enum: ['comment'] }) declare object: 'comment';
  /** Number of replies */
  replies: number;
  @ApiProperty({ type: [UserContributorDto] }) repliers: UserContributorDto[];
  target: CommentTargetDto;
  @ApiProperty({ enum: ['open', 'resolved'] }) status: 'open' | 'resolved';
  @ApiPropertyOptional({ format: 'date-time' }) resolvedAt?: string;
  resolvedBy?: UserDto;
}

/** Every user a page of comments names (authors, reactors, repliers, resolvers). */
export function usersOf(views: CommentView[]): string[] {
  return views.flatMap((v) => [
    v.comment.postedBy,
    ...(v.comment.resolvedBy ? [v.comment.resolvedBy] : []),
    ...v.reactions.map((r) => r.userId),
    ...(v.replies?.repliers.map((r) => r.userId) ?? []),
  ]);
}

export function toCommentDto(
  v: CommentView,
  format: 'document' | 'markdown' | undefined,
  user: (id: string) => UserDto,
  links: Links,
): CommentDto | CommentReplyDto {
  const c = v.comment;
  const byEmoji = new Map<string, EmojiReactionDto>();
  for (const r of v.reactions) {
    const e = byEmoji.get(r.emoji) ?? { emoji: r.emoji, count: 0, users: [] };
    e.count += 1;
    e.users.push({ user: user(r.userId), reactedAt: r.reactedAt.toISOString() });
    byEmoji.set(r.emoji, e);
  }
  const base = c.changeRequestId ? `/spaces/${c.spaceId}/change-requests/${c.changeRequestId}/comments` : `/spaces/${c.spaceId}/comments`;
  const reply: CommentReplyDto = {
    object: 'comment-reply',
    id: c.id,
    postedBy: user(c.postedBy),
    postedAt: c.postedAt.toISOString(),
    reactions: [...byEmoji.values()],
    body: format === 'document' ? { document: c.body.document } : { markdown: c.body.markdown },
    urls: { location: links.api(c.parentId ? `${base}/${c.parentId}/replies/${c.id}` : `${base}/${c.id}`) },
    permissions: commentPermissions(c, v.userId, v.role),
  };
  if (c.editedAt) reply.editedAt = c.editedAt.toISOString();
  if (c.parentId || !v.replies) return reply;
  const target: CommentTargetDto = { space: c.spaceId, revision: c.target.revision };
  if (c.target.page) target.page = { id: c.target.page };
  if (c.target.node) target.node = { id: c.target.node };
  if (c.target.tableCell) target.tableCell = c.target.tableCell;
  if (c.changeRequestId) target.changeRequest = c.changeRequestId;
  if (c.target.review) target.review = c.target.review;
  const dto: CommentDto = {
    ...reply,
    object: 'comment',
    replies: v.replies.count,
    repliers: v.replies.repliers.map((r) => ({ updatedAt: r.updatedAt.toISOString(), count: r.count, user: user(r.userId) })),
    target,
    status: c.status,
  };
  if (c.resolvedAt) dto.resolvedAt = c.resolvedAt.toISOString();
  if (c.resolvedBy) dto.resolvedBy = user(c.resolvedBy);
  return dto;
}
