import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Links, ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import type { ReviewView } from '../application/reviews.service';
import { REVIEWERS_PER_REQUEST_MAX } from '../application/reviews.service';
import { SUBJECT_MAX } from '../domain/change-request';
import { COMMENT_MARKDOWN_MAX } from '../domain/comment';
import { REVIEW_STATUSES, ReviewRequest, ReviewStatus } from '../domain/review';
import { CommentDto, toCommentDto, usersOf } from './comment.dto';
import { UserDto } from '@app/wire';

/** The official `Document`: `{markdown}`, `{document}`, or `{}` (no comment). */
export class ReviewCommentInputDto {
  @Optional() @IsString() @MaxLength(COMMENT_MARKDOWN_MAX) markdown?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @Optional()
  @IsObject()
  document?: object;
}

export class SubmitReviewDto {
  @ApiProperty({ enum: REVIEW_STATUSES }) @IsIn(REVIEW_STATUSES) status: ReviewStatus;
  /** Optionally, a comment posted with the review */
  @Optional() @ValidateNested() @Type(() => ReviewCommentInputDto) @IsObject() comment?: ReviewCommentInputDto;
}

export class ListReviewsQueryDto extends ListQueryDto {
  @Optional() @IsIn(['document', 'markdown']) format?: 'document' | 'markdown';
  /** Only reviews marked (true) or not marked (false) as outdated */
  @Optional() @Transform(toStrictBool) @IsBoolean() outdated?: boolean;
}

export class ReviewFormatQueryDto {
  @Optional() @IsIn(['document', 'markdown']) format?: 'document' | 'markdown';
}

export class RequestReviewersDto {
  /** User ids to ask for a review */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(REVIEWERS_PER_REQUEST_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(200, { each: true })
  users: string[];
  /** Optionally, a new subject for the change request */
  @Optional() @IsString() @MaxLength(SUBJECT_MAX) subject?: string;
  /** Optionally, a new description (a JSON document) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @Optional() @IsObject() description?: object;
}

export class ReviewUrlsDto {
  location: string;
}

export class ReviewDto {
  @ApiProperty({ enum: ['change-request-review'] }) object: 'change-request-review';
  id: string;
  /** The revision the review was made against */
  revision: string;
  reviewer: UserDto;
  /** Who asked for the review (absent: left without a request) */
  requestedBy?: UserDto;
  @ApiProperty({ enum: REVIEW_STATUSES }) status: ReviewStatus;
  /** Superseded by a newer review request or submission */
  outdated: boolean;
  comment?: CommentDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  urls: ReviewUrlsDto;
}

export class RequestedReviewerDto {
  @ApiProperty({ enum: ['change-request-requested-reviewer'] }) object: 'change-request-requested-reviewer';
  /** The revision of the content when the request was made */
  revision: string;
  requestedBy: UserDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ enum: ['user'] }) kind: 'user';
  user: UserDto;
}

export class RequestedReviewersDto {
  @ApiProperty({ type: [RequestedReviewerDto] }) users: RequestedReviewerDto[];
}

export function reviewUsers(views: ReviewView[]): string[] {
  return views.flatMap((v) => [
    v.review.reviewer,
    ...(v.review.requestedBy ? [v.review.requestedBy] : []),
    ...(v.comment ? usersOf([v.comment]) : []),
  ]);
}

export function toReviewDto(
  v: ReviewView,
  format: 'document' | 'markdown' | undefined,
  user: (id: string) => UserDto,
  links: Links,
): ReviewDto {
  const r = v.review;
  const dto: ReviewDto = {
    object: 'change-request-review',
    id: r.id,
    revision: r.revision,
    reviewer: user(r.reviewer),
    status: r.status,
    outdated: r.outdated,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    urls: { location: links.api(`/spaces/${r.spaceId}/change-requests/${r.changeRequestId}/reviews/${r.id}`) },
  };
  if (r.requestedBy) dto.requestedBy = user(r.requestedBy);
  if (v.comment) dto.comment = toCommentDto(v.comment, format, user, links) as CommentDto;
  return dto;
}

export function toRequestedReviewerDto(r: ReviewRequest, user: (id: string) => UserDto): RequestedReviewerDto {
  return {
    object: 'change-request-requested-reviewer',
    revision: r.revision,
    requestedBy: user(r.requestedBy),
    createdAt: r.createdAt.toISOString(),
    kind: 'user',
    user: user(r.userId),
  };
}
