import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import { PAGE_FEEDBACK_RATINGS, type PageFeedback, type PageFeedbackRating } from '../domain/page-feedback';

/** listSitePageFeedback: the list's page and limit, narrowed by rating, space, page, or whether a comment was left. */
export class ListPageFeedbackQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PAGE_FEEDBACK_RATINGS, description: 'Only the feedback with this rating' })
  @Optional()
  @IsIn(PAGE_FEEDBACK_RATINGS)
  rating?: PageFeedbackRating;
  /** Only the feedback on pages of this space */
  @Optional() @IsString() @MinLength(1) @MaxLength(64) spaceId?: string;
  /** Only the feedback on this page */
  @Optional() @IsString() @MinLength(1) @MaxLength(64) pageId?: string;
  /** `true`: only feedback with a comment; `false`: only without */
  @ApiPropertyOptional({ type: Boolean }) @Optional() @Transform(toStrictBool) @IsBoolean() commented?: boolean;
}

export class PageFeedbackPageDto {
  /** The page's id in its space */
  id: string;
  /** The page's path below the site's root when the feedback was given */
  path: string;
}

export class PageFeedbackDto {
  @ApiProperty({ enum: ['page-feedback'] }) object: 'page-feedback';
  id: string;
  /** When the visitor gave it */
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  /** The official PageFeedbackRating: was the page helpful? */
  @ApiProperty({ enum: PAGE_FEEDBACK_RATINGS }) rating: PageFeedbackRating;
  /** What the visitor wrote (1 to 512 characters), if anything */
  @ApiPropertyOptional({ maxLength: 512 }) comment?: string;
  /** The space of the page */
  space: string;
  page: PageFeedbackPageDto;
}

export function toPageFeedbackDto(f: PageFeedback): PageFeedbackDto {
  return {
    object: 'page-feedback',
    id: f.id,
    createdAt: f.createdAt.toISOString(),
    rating: f.rating,
    ...(f.comment !== null ? { comment: f.comment } : {}),
    space: f.spaceId,
    page: { id: f.pageId, path: f.pagePath },
  };
}
