import type { SitePreviews } from '../application/site-previews';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Links, ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import { Role } from '@app/shared-kernel';
import {
  AGENTS_CONTEXTS,
  AgentsContext,
  BASENAME_MAX,
  HOSTNAME_PATTERN,
  PROXY_PATTERN,
  Site,
  SITE_TITLE,
  SITE_TYPES,
  SITE_VISIBILITIES,
  siteSpaces,
  SiteType,
  SiteVisibility,
} from '../domain/site';
import { sitePermissions, type SitePermissions } from '@app/access';
import { previewUrl, publishedRoot, servedBase } from '../domain/site-urls';

// ---------------------------------------------------------------------------------------------
// Requests

export class ListSitesQueryDto extends ListQueryDto {
  /** Only sites showing this space */
  @Optional() @IsString() @MaxLength(200) space?: string;
  /** Only sites whose title contains this text (case-insensitive) */
  @Optional() @IsString() @MaxLength(SITE_TITLE.max) title?: string;
  /** Only published (true) or unpublished (false) sites */
  @Optional() @Transform(toStrictBool) @IsBoolean() published?: boolean;
  /** Only sites of these types (repeat the parameter for several) */
  @ApiPropertyOptional({ enum: SITE_TYPES, isArray: true })
  @Optional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(SITE_TYPES.length)
  @IsIn(SITE_TYPES, { each: true })
  type?: SiteType[];
}

export class CreateSiteDto {
  @ApiPropertyOptional({ enum: SITE_TYPES, default: 'basic' }) @Optional() @IsIn(SITE_TYPES) type?: SiteType;
  @Optional() @IsString() @MinLength(SITE_TITLE.min) @MaxLength(SITE_TITLE.max) title?: string;
  @ApiPropertyOptional({ enum: SITE_VISIBILITIES }) @Optional() @IsIn(SITE_VISIBILITIES) visibility?: SiteVisibility;
  /** Ids of spaces to add to the site as site spaces */
  @Optional() @IsArray() @ArrayMaxSize(200) @IsString({ each: true }) @MaxLength(200, { each: true }) spaces?: string[];
}

export class AdaptiveContentDto {
  @IsBoolean() enabled: boolean;
}

export class UpdateSiteDto {
  @Optional() @IsString() @MinLength(SITE_TITLE.min) @MaxLength(SITE_TITLE.max) title?: string;
  @ApiPropertyOptional({ enum: SITE_VISIBILITIES }) @Optional() @IsIn(SITE_VISIBILITIES) visibility?: SiteVisibility;
  /** Basename of the site (one path segment), or null to remove it */
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: BASENAME_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(BASENAME_MAX)
  basename?: string | null;
  /** Custom hostname (Quire extension: the official document has no operation that sets it), or null to remove it */
  @ApiPropertyOptional({ type: String, nullable: true, pattern: HOSTNAME_PATTERN.source, maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(HOSTNAME_PATTERN, { message: 'hostname must be a lowercase host name with at least three labels (docs.example.com)' })
  hostname?: string | null;
  @Optional() @ValidateNested() @Type(() => AdaptiveContentDto) @IsObject() adaptiveContent?: AdaptiveContentDto;
  @ApiPropertyOptional({ enum: AGENTS_CONTEXTS }) @Optional() @IsIn(AGENTS_CONTEXTS) agentsContext?: AgentsContext;
  /** Site space used as the default at the root level, or in the default section when the site has sections */
  @Optional() @IsString() @MaxLength(200) defaultSiteSpace?: string;
  /** Section used as the default */
  @Optional() @IsString() @MaxLength(200) defaultSiteSection?: string;
  /** A host followed by one or more path segments (company.com/docs), or null to remove the proxy */
  @ApiPropertyOptional({ type: String, nullable: true, pattern: PROXY_PATTERN.source, maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(PROXY_PATTERN, { message: 'proxy must be a host followed by one or more path segments (example.com/docs)' })
  proxy?: string | null;
}

/** The official `unmasked` flag of a customization read (deprecated there): Quire's customization holds no masked secret, so both values answer the same. */
export class CustomizationQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: false, deprecated: true })
  @Optional()
  @Transform(toStrictBool)
  @IsBoolean()
  unmasked?: boolean;
}

export class ShareKeyQueryDto {
  /** The key of an active share link: reads then answer as they would to a visitor holding it (404 for any other key) */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) shareKey?: string;
}

// ---------------------------------------------------------------------------------------------
// Responses

export class SitePermissionsDto implements SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

export class SiteUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
  @ApiProperty({ format: 'uri' }) preview: string;
  /** Only when the site is published */
  @ApiPropertyOptional({ format: 'uri' }) published?: string;
}

export class SiteProxyDto {
  origin: string;
  target: string;
}

export class SiteDto {
  @ApiProperty({ enum: ['site'] }) object: 'site';
  id: string;
  @ApiProperty({ enum: SITE_TYPES }) type: SiteType;
  @ApiProperty({ enum: SITE_TYPES }) appliedType: SiteType;
  title: string;
  hostname?: string;
  basename?: string;
  proxy?: SiteProxyDto;
  @ApiProperty({ enum: SITE_VISIBILITIES }) visibility: SiteVisibility;
  @ApiProperty({ enum: ['inherit'] }) defaultLevel: 'inherit';
  permissions: SitePermissionsDto;
  published: boolean;
  /** Number of site spaces */
  siteSpaces: number;
  createdAt: string;
  adaptiveContent: AdaptiveContentDto;
  @ApiProperty({ enum: AGENTS_CONTEXTS }) agentsContext: AgentsContext;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) features: never[];
  urls: SiteUrlsDto;
}

/** A site as the API shows it; `previews` signs its short-lived `urls.preview`. */
export function toSiteDto(site: Site, role: Role, links: Links, previews: SitePreviews): SiteDto {
  const dto: SiteDto = {
    object: 'site',
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    visibility: site.visibility,
    defaultLevel: 'inherit',
    permissions: sitePermissions(role),
    published: site.published,
    siteSpaces: siteSpaces(site.structure).length,
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: links.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: links.app(`/o/${site.organizationId}/sites/${site.id}`),
      preview: previewUrl(site.id, links.origin, previews.token(site.id)),
    },
  };
  if (site.hostname) dto.hostname = site.hostname;
  if (site.basename) dto.basename = site.basename;
  if (site.proxy) dto.proxy = { origin: site.proxy, target: servedBase(site.id, links.origin) };
  if (site.published) dto.urls.published = publishedRoot(site, links.origin);
  return dto;
}

// ---------------------------------------------------------------------------------------------
// Presenting the structure
