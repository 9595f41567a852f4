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
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import { InvalidInputError } from '@app/shared-kernel';
import type { BulkItem, BulkResult } from '../application/redirects.service';
import { ShareKeyQueryDto } from './site.dto';
import {
  BULK_MAX,
  REDIRECT_ORDERS,
  type RedirectDestination,
  type RedirectDestinationInput,
  type RedirectOrder,
  type SiteRedirect,
  SOURCE_MAX,
  SOURCE_PATTERN,
  URL_MAX,
} from '../domain/redirects';

const DESTINATION_KINDS = ['site-section', 'site-space', 'site-page', 'external', 'path'] as const;
const ID_MAX = 100;

/**
 * Where a redirect sends (official `SiteRedirectInputDestination`): `site-section` (siteSectionId),
 * `site-space` (siteSpaceId), `site-page` (siteSpaceId, pageId), `external` (url), or `path` (spaceId,
 * path: a page by its path in a space the site shows, stored as the page it names).
 */
export class RedirectDestinationInputDto {
  @ApiProperty({ enum: DESTINATION_KINDS }) @IsIn(DESTINATION_KINDS) kind: (typeof DESTINATION_KINDS)[number];
  @Optional() @IsString() @MaxLength(ID_MAX) siteSectionId?: string;
  @Optional() @IsString() @MaxLength(ID_MAX) siteSpaceId?: string;
  @Optional() @IsString() @MaxLength(ID_MAX) pageId?: string;
  @ApiPropertyOptional({ format: 'uri', maxLength: URL_MAX }) @Optional() @IsString() @MaxLength(URL_MAX) url?: string;
  @Optional() @IsString() @MaxLength(ID_MAX) spaceId?: string;
  @Optional() @IsString() @MaxLength(SOURCE_MAX) path?: string;
}

/** The destination a request gave, each kind with the fields it needs (else a 400 naming the missing one). */
export function toDestinationInput(d: RedirectDestinationInputDto, where = 'destination'): RedirectDestinationInput {
  const need = (field: keyof RedirectDestinationInputDto): string => {
    const v = d[field];
    if (typeof v !== 'string' || v === '') throw new InvalidInputError(`${where}.${field} is required for kind "${d.kind}"`);
    return v;
  };
  switch (d.kind) {
    case 'site-section':
      return { kind: d.kind, siteSectionId: need('siteSectionId') };
    case 'site-space':
      return { kind: d.kind, siteSpaceId: need('siteSpaceId') };
    case 'site-page':
      return { kind: d.kind, siteSpaceId: need('siteSpaceId'), pageId: need('pageId') };
    case 'external':
      return { kind: d.kind, url: need('url') };
    case 'path':
      return { kind: d.kind, spaceId: need('spaceId'), path: need('path') };
  }
}

const SOURCE_RULE = 'a path starting with "/", its segments URL-safe, with an optional trailing "*" or "/*"';

export class CreateRedirectDto {
  /** The source path to redirect from (below the site's root). */
  @ApiProperty({ maxLength: SOURCE_MAX, pattern: SOURCE_PATTERN.source })
  @IsString()
  @MaxLength(SOURCE_MAX)
  @Matches(SOURCE_PATTERN, { message: `source must be ${SOURCE_RULE}` })
  source: string;
  /** Capture and append the wildcard-matched suffix to the destination URL (default false). */
  @Optional() @IsBoolean() captureWildcard?: boolean;
  /** Whether the redirect is draft and not live (default false). */
  @Optional() @IsBoolean() draft?: boolean;
  /** Whether the redirect is permanent for public live traffic (default false). */
  @Optional() @IsBoolean() permanent?: boolean;
  @IsObject() @ValidateNested() @Type(() => RedirectDestinationInputDto) destination: RedirectDestinationInputDto;
}

export class UpdateRedirectDto {
  @ApiPropertyOptional({ maxLength: SOURCE_MAX, pattern: SOURCE_PATTERN.source })
  @Optional()
  @IsString()
  @MaxLength(SOURCE_MAX)
  @Matches(SOURCE_PATTERN, { message: `source must be ${SOURCE_RULE}` })
  source?: string;
  @Optional() @IsBoolean() captureWildcard?: boolean;
  /** false promotes a draft redirect to live. */
  @Optional() @IsBoolean() draft?: boolean;
  @Optional() @IsBoolean() permanent?: boolean;
  /** A destination (the official `SiteRedirectDestination`: no `path` kind here). */
  @Optional() @IsObject() @ValidateNested() @Type(() => RedirectDestinationInputDto) destination?: RedirectDestinationInputDto;
}

export class BulkRedirectItemDto {
  @ApiProperty({ maxLength: SOURCE_MAX, pattern: SOURCE_PATTERN.source })
  @IsString()
  @MaxLength(SOURCE_MAX)
  @Matches(SOURCE_PATTERN, { message: `redirects[].source must be ${SOURCE_RULE}` })
  source: string;
  /** live (default) or draft: upsert or delete that redirect; publish: make the draft live and remove the draft. */
  @ApiPropertyOptional({ enum: ['live', 'draft', 'publish'], default: 'live' }) @Optional() @IsIn(['live', 'draft', 'publish']) intent?:
    'live' | 'draft' | 'publish';
  @Optional() @IsBoolean() captureWildcard?: boolean;
  @Optional() @IsBoolean() permanent?: boolean;
  /** The destination; null deletes the redirect of this source and intent. Not given with intent publish. */
  @ApiPropertyOptional({ type: RedirectDestinationInputDto, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => RedirectDestinationInputDto)
  destination?: RedirectDestinationInputDto | null;
}

export class BulkRedirectsDto {
  @ApiProperty({ type: [BulkRedirectItemDto], minItems: 1, maxItems: BULK_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BULK_MAX)
  @ValidateNested({ each: true })
  @Type(() => BulkRedirectItemDto)
  redirects: BulkRedirectItemDto[];
}

/** A bulk item as the service takes it (its shape checked: a destination, or null, unless it publishes). */
export function toBulkItem(item: BulkRedirectItemDto, index: number): BulkItem {
  if (item.intent === 'publish') {
    if (item.destination !== undefined) throw new InvalidInputError(`redirects[${index}]: intent "publish" takes no destination`);
    return { source: item.source, intent: 'publish' };
  }
  if (item.destination === undefined) throw new InvalidInputError(`redirects[${index}].destination is required (null deletes)`);
  return {
    source: item.source,
    intent: item.intent,
    captureWildcard: item.captureWildcard,
    permanent: item.permanent,
    destination: item.destination === null ? null : toDestinationInput(item.destination, `redirects[${index}].destination`),
  };
}

export class ListRedirectsQueryDto extends ListQueryDto {
  /** Only the redirects whose source contains this text. */
  @Optional() @IsString() @MaxLength(SOURCE_MAX) search?: string;
  /** The draft redirects instead of the live ones (default false). */
  @ApiPropertyOptional({ type: Boolean, default: false }) @Optional() @Transform(toStrictBool) @IsBoolean() draft?: boolean;
  @ApiPropertyOptional({ enum: REDIRECT_ORDERS, default: 'createdAt' }) @Optional() @IsIn(REDIRECT_ORDERS) orderBy?: RedirectOrder;
}

export class RedirectBySourceQueryDto extends ShareKeyQueryDto {
  @ApiProperty({ maxLength: SOURCE_MAX, pattern: SOURCE_PATTERN.source })
  @IsString()
  @MaxLength(SOURCE_MAX)
  @Matches(SOURCE_PATTERN, { message: `source must be ${SOURCE_RULE}` })
  source: string;
}

/** The official `SiteRedirect`. */
export class SiteRedirectDto {
  @ApiProperty({ enum: ['site-redirect'] }) object: 'site-redirect';
  id: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  /** Permanent redirects are served as 308 on public sites, 307 elsewhere; the others as 307. */
  permanent: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'site-section, site-space, site-page or external' })
  destination: RedirectDestination;
  createdAt: string;
  /** Absent if never updated since creation. */
  updatedAt?: string;
}

export function toRedirectDto(r: SiteRedirect): SiteRedirectDto {
  const dto: SiteRedirectDto = {
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt.toISOString(),
  };
  if (r.updatedAt) dto.updatedAt = r.updatedAt.toISOString();
  return dto;
}

export class RedirectBySourceDto {
  redirect: SiteRedirectDto;
  /** URL of the destination of the redirect. */
  target: string;
}

export class BulkRedirectResultDto {
  @ApiProperty({ enum: ['created', 'updated', 'deleted', 'published', 'error'] }) status: BulkResult['status'];
  source: string;
  draft: boolean;
  id?: string;
  error?: string;
}

export class BulkRedirectsResultDto {
  @ApiProperty({ type: [BulkRedirectResultDto] }) results: BulkResult[];
}
