import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { SEARCH_QUERY_MAX } from '@app/content-model';
import { Optional } from '@app/http-kit';

/** A list of site space ids: 1 to 1,000, each a string of at most 100 characters (absent allowed, `null` not). */
const SiteSpaceIds = () =>
  applyDecorators(Optional(), IsArray(), ArrayMinSize(1), ArrayMaxSize(1000), IsString({ each: true }), MaxLength(100, { each: true }));

/** The official `SiteSearchScope`: `default`, `specific` or `all` (docs/published-sites.md says what each searches). */
export class SiteSearchScopeDto {
  @ApiProperty({ enum: ['default', 'specific', 'all'] })
  @IsIn(['default', 'specific', 'all'])
  mode: 'default' | 'specific' | 'all';

  /** `default`: the site space the search is made from (always searched) */
  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(100)
  currentSiteSpace?: string;

  /** `default` with `currentSiteSpace`: only it (`currentSiteSpace`), or only the others (`otherSiteSpaces`) */
  @ApiPropertyOptional({ enum: ['currentSiteSpace', 'otherSiteSpaces'] })
  @Optional()
  @IsIn(['currentSiteSpace', 'otherSiteSpaces'])
  restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces';

  /** `specific`: the site spaces to search */
  @ApiPropertyOptional({ type: [String] })
  @SiteSpaceIds()
  siteSpaceIds?: string[];
}

/** The official searchSiteContent body: a query and a scope (or the deprecated `mode`, `siteSpaceIds`, `siteSpaceId`). */
export class SiteContentSearchDto {
  /** Words to find (web-search syntax: "quoted phrases", OR, -excluded) */
  @ApiProperty({ maxLength: SEARCH_QUERY_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(SEARCH_QUERY_MAX)
  query: string;

  /** What to search; without it (or a deprecated form), the default scope */
  @ApiPropertyOptional({ type: SiteSearchScopeDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSearchScopeDto)
  scope?: SiteSearchScopeDto;

  /** Deprecated (use `scope`): `specific` with `siteSpaceIds`, `current` with `siteSpaceId`, or `all` */
  @ApiPropertyOptional({ enum: ['specific', 'current', 'all'], deprecated: true })
  @Optional()
  @IsIn(['specific', 'current', 'all'])
  mode?: 'specific' | 'current' | 'all';

  /** Deprecated (use `scope`): the site spaces to search */
  @ApiPropertyOptional({ type: [String], deprecated: true })
  @SiteSpaceIds()
  siteSpaceIds?: string[];

  /** Deprecated (use `scope`): with `mode: current`, the site space the search is made from */
  @ApiPropertyOptional({ deprecated: true })
  @Optional()
  @IsString()
  @MaxLength(100)
  siteSpaceId?: string;
}

/** The official `streamAskInSite` body's `context`: where the question is asked from, and the asker's goal. */
export class SiteAskContextDto {
  /** The site space the question is asked from */
  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(100)
  siteSpaceId?: string;

  /** The end goal the agent is trying to accomplish on behalf of the user */
  @ApiPropertyOptional({ maxLength: 1024 })
  @Optional()
  @IsString()
  @MaxLength(1024)
  goal?: string;
}

/** The official `SiteInsightsSession` (accepted; Quire's insights count visitors by the site's own script). */
export class SiteAskSessionDto {
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) visitorId?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) sessionId?: string;
}

/** The official `streamAskInSite` body. */
export class SiteAskDto {
  @ApiProperty({ maxLength: 512 })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  question: string;

  /** Where the answer's pages are looked for */
  @ApiProperty({ type: SiteSearchScopeDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSearchScopeDto)
  scope: SiteSearchScopeDto;

  @ApiPropertyOptional({ type: SiteAskContextDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAskContextDto)
  context?: SiteAskContextDto;

  @ApiPropertyOptional({ type: SiteAskSessionDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAskSessionDto)
  session?: SiteAskSessionDto;
}

/** The official `documentFormat` query of streamAskInSite. */
export class SiteAskQueryDto {
  @ApiPropertyOptional({ enum: ['document', 'markdown'], description: 'Output format for the content' })
  @Optional()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';
}
