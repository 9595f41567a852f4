import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Optional, toStrictBool } from '@app/http-kit';

/** The longest visitor token taken (a JWT signed with the site's key). */
const VISITOR_TOKEN_MAX = 4096;

export class PublishedUrlQueryDto {
  /** URL to resolve */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
  /** JWT token generated for a authenticated access session */
  @Optional() @IsString() @MinLength(1) @MaxLength(VISITOR_TOKEN_MAX) visitorAuthToken?: string;
  /** When true redirects the user to the authentication/fallback URL if the access token is invalid */
  @ApiPropertyOptional({ type: Boolean, default: false }) @Optional() @Transform(toStrictBool) @IsBoolean() redirectOnError?: boolean;
}

/** The official SiteVisitorPayload: who the visitor is (a signed token and/or unsigned claims). */
export class SiteVisitorPayloadDto {
  /** Whether the visitor is a human or an AI agent. Defaults to human when omitted. */
  @ApiPropertyOptional({ enum: ['human', 'agent'] }) @Optional() @IsIn(['human', 'agent']) type?: 'human' | 'agent';
  /** JWT token generated for a authenticated access session. */
  @Optional() @IsString() @MinLength(1) @MaxLength(VISITOR_TOKEN_MAX) jwtToken?: string;
  /** Unsigned claims of the visitor (what the site's adaptive schema declares under `unsigned` counts). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @Optional()
  @IsObject()
  unsignedClaims?: Record<string, unknown>;
}

export class ResolvePublishedUrlDto {
  /** URL to resolve */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
  /** When true redirects the user to the authentication/fallback URL if the access token is invalid */
  @ApiPropertyOptional({ type: Boolean, default: false }) @Optional() @IsBoolean() redirectOnError?: boolean;
  @ApiPropertyOptional({ type: SiteVisitorPayloadDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteVisitorPayloadDto)
  visitor?: SiteVisitorPayloadDto;
}

/** The official PublishedSiteContent. */
export class PublishedSiteContentDto {
  /** ID of the site matching. */
  site: string;
  /** ID of the site-section matching. */
  siteSection?: string;
  /** ID of the site-space matching. */
  siteSpace: string;
  /** ID of the space matching. */
  space: string;
  /** Path of the content relative to the input URL being resolved */
  pathname: string;
  /** Prefix of the path in the input URL being resolved */
  basePath: string;
  /** Prefix of the site path in the input URL being resolved */
  siteBasePath: string;
  /** Short-lived API token to fetch content related to the space in the context of the URL (an hour; see docs/published-sites.md). */
  apiToken: string;
  /** ID of the organization. */
  organization: string;
  /** Share link key of the site in case the site was published with share-links. */
  shareKey?: string;
  /** Whether the resolved site URL is complete (Quire resolves a URL to its page: always true). */
  complete: boolean;
  /** For a visitor-auth site or a visitor with claims: changes when what their claims show changes. */
  contextId?: string;
  /** The canonical URL of the resolution. */
  canonicalUrl: string;
  /** Whether the URL is a preview URL */
  preview?: boolean;
}

/** The official PublishedContentRedirect: to other content of the site, or out of it (a sign-in, an external redirect). */
export class PublishedContentRedirectDto {
  @ApiProperty({ enum: ['content', 'external'] }) target: 'content' | 'external';
  /** ID of the resolved site (for `external`). */
  site?: string;
  redirect: string;
}
