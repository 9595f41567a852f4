import type { SitePreviews } from '../application/site-previews';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Links, ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import { SpaceView } from '@app/spaces-and-content';
import { Role } from '@app/shared-kernel';
import {
  AGENTS_CONTEXTS,
  AgentsContext,
  BASENAME_MAX,
  CONDITION_MAX,
  DESCRIPTION_MAX,
  GROUP_TITLE,
  GroupNode,
  HOSTNAME_PATTERN,
  ICON_MAX,
  PATH_MAX,
  PROXY_PATTERN,
  SECTION_TITLE,
  SectionNode,
  Site,
  SITE_TITLE,
  SITE_TYPES,
  SITE_VISIBILITIES,
  SiteSpaceNode,
  siteSpaces,
  SiteType,
  SiteVisibility,
  Structure,
  TopItem,
} from '../domain/site';
import { SHARE_LINK_NAME_MAX, ShareLink } from '../domain/site-repository';
import { CLAIMS_JSON_MAX } from '../application/published-sites.service';
import { SpaceDto, toSpaceDto } from '@app/wire';
import { sitePermissions, type SitePermissions } from '@app/access';

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

/** listSiteShareLinks: the list's page and limit, and the official `search`. */
export class ListShareLinksQueryDto extends ListQueryDto {
  /** Only the share links whose name contains this (case-insensitive), or, for those who may see keys, whose key is this */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) search?: string;
}

export class ShareKeyQueryDto {
  /** The key of an active share link: reads then answer as they would to a visitor holding it (404 for any other key) */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) shareKey?: string;
}

export class PublishedQueryDto extends ShareKeyQueryDto {
  /**
   * Quire extension: the visitor's claims as a JSON object (validated against the site's adaptive schema),
   * e.g. `{"isBeta":true,"unsigned":{"fromDocs":true}}`; conditions of sections and site spaces are evaluated
   * against them when adaptive content is enabled.
   */
  @Optional() @IsString() @MaxLength(CLAIMS_JSON_MAX) visitorClaims?: string;
  /**
   * Quire extension, for `visitor-auth` sites: the visitor's token, a JWT signed (HS256) with the site's
   * `privateKey` (GET …/publishing/auth) and carrying `exp`; its claims are the visitor's signed claims.
   */
  @Optional() @IsString() @MaxLength(8192) visitorToken?: string;
}

const AUTH_BACKENDS = ['custom', 'integration'] as const;

export class UpdatePublishingAuthDto {
  /** Only `custom` is supported (a backend of your own signs visitor tokens) */
  @ApiPropertyOptional({ enum: AUTH_BACKENDS }) @Optional() @IsIn(AUTH_BACKENDS) backend?: (typeof AUTH_BACKENDS)[number];
  /** Where visitors go when their token is refused; null unsets it */
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  fallbackURL?: string | null;
  /** Where visitors log out of your backend; null unsets it */
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  logoutURL?: string | null;
}

export class PublishingAuthDto {
  @ApiProperty({ enum: ['publishing-auth'] }) object: 'publishing-auth';
  @ApiProperty({ enum: ['custom'] }) backend: 'custom';
  /** The key visitor tokens are signed with (HS256) */
  privateKey: string;
  @ApiPropertyOptional({ format: 'uri' }) fallbackURL?: string;
  @ApiPropertyOptional({ format: 'uri' }) logoutURL?: string;
}

export function toPublishingAuthDto(auth: { privateKey: string; fallbackURL: string | null; logoutURL: string | null }): PublishingAuthDto {
  const dto: PublishingAuthDto = { object: 'publishing-auth', backend: 'custom', privateKey: auth.privateKey };
  if (auth.fallbackURL) dto.fallbackURL = auth.fallbackURL;
  if (auth.logoutURL) dto.logoutURL = auth.logoutURL;
  return dto;
}

export class ListWithShareKeyQueryDto extends ListQueryDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) shareKey?: string;
}

export class ListSiteSpacesQueryDto extends ListWithShareKeyQueryDto {
  /** true: only the default site space; false: only the others; absent: all */
  @Optional() @Transform(toStrictBool) @IsBoolean() default?: boolean;
}

export class AddSectionDto {
  /** The space added to the section as its first site space */
  @IsString() @MinLength(1) @MaxLength(200) spaceId: string;
  /** Title of the section (default: the space's title) */
  @ApiPropertyOptional({ type: String, nullable: true, minLength: SECTION_TITLE.min, maxLength: SECTION_TITLE.max })
  @IsOptional()
  @IsString()
  @MinLength(SECTION_TITLE.min)
  @MaxLength(SECTION_TITLE.max)
  title?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  /** The section group to create the section in */
  @Optional() @IsString() @MaxLength(200) siteSectionGroupId?: string;
}

export class UpdateSectionDto {
  @Optional() @IsString() @MinLength(SECTION_TITLE.min) @MaxLength(SECTION_TITLE.max) title?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(PATH_MAX) path?: string;
  /** Site space used as the default in this section */
  @Optional() @IsString() @MaxLength(200) defaultSiteSpace?: string;
  /** Expression deciding whether visitors see the section; unset leaves it, null removes it */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}

export class AddGroupDto {
  @IsString() @MinLength(GROUP_TITLE.min) @MaxLength(GROUP_TITLE.max) title: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  /** Sections moved into the new group */
  @Optional() @IsArray() @ArrayMaxSize(200) @IsString({ each: true }) @MaxLength(200, { each: true }) sections?: string[];
  /** The group to nest it in (absent: the root of the site) */
  @Optional() @IsString() @MaxLength(200) parent?: string;
}

export class UpdateGroupDto {
  @Optional() @IsString() @MinLength(GROUP_TITLE.min) @MaxLength(GROUP_TITLE.max) title?: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
}

export class AddSectionToGroupDto {
  @IsString() @MinLength(1) @MaxLength(200) sectionId: string;
}

export class AddSiteSpaceDto {
  @IsString() @MinLength(1) @MaxLength(200) spaceId: string;
  /** Section to add it to (absent: the default section, or the root when the site has no sections) */
  @Optional() @IsString() @MaxLength(200) sectionId?: string;
}

export class UpdateSiteSpaceDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(PATH_MAX) path?: string;
  /** Expression deciding whether visitors see the site space; unset leaves it, null removes it */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
  /** The space it points to */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) spaceId?: string;
}

const POINTER_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;

export class StructurePointerDto {
  @ApiProperty({ enum: POINTER_TYPES }) @IsIn(POINTER_TYPES) type: (typeof POINTER_TYPES)[number];
  @IsString() @MinLength(1) @MaxLength(200) id: string;
}

export class StructurePositionDto {
  @Optional() @ValidateNested() @Type(() => StructurePointerDto) @IsObject() before?: StructurePointerDto;
  @Optional() @ValidateNested() @Type(() => StructurePointerDto) @IsObject() after?: StructurePointerDto;
}

export class SortStructureDto {
  @ValidateNested() @Type(() => StructurePointerDto) @IsObject() item: StructurePointerDto;
  /** Before or after a sibling; `{}` moves the item to the end of its level */
  @ValidateNested() @Type(() => StructurePositionDto) @IsObject() position: StructurePositionDto;
}

export class SectionPointerDto {
  @ApiProperty({ enum: ['site-section'] }) @IsIn(['site-section']) type: 'site-section';
  @IsString() @MinLength(1) @MaxLength(200) siteSection: string;
}
export class SectionPositionDto {
  @Optional() @ValidateNested() @Type(() => SectionPointerDto) @IsObject() before?: SectionPointerDto;
  @Optional() @ValidateNested() @Type(() => SectionPointerDto) @IsObject() after?: SectionPointerDto;
}
export class MoveSectionDto {
  @Optional() @ValidateNested() @Type(() => SectionPositionDto) @IsObject() position?: SectionPositionDto;
}

export class SiteSpacePointerDto {
  @ApiProperty({ enum: ['site-space'] }) @IsIn(['site-space']) type: 'site-space';
  @IsString() @MinLength(1) @MaxLength(200) siteSpace: string;
}
export class SiteSpacePositionDto {
  @Optional() @ValidateNested() @Type(() => SiteSpacePointerDto) @IsObject() before?: SiteSpacePointerDto;
  @Optional() @ValidateNested() @Type(() => SiteSpacePointerDto) @IsObject() after?: SiteSpacePointerDto;
}
export class MoveSiteSpaceDto {
  @Optional() @ValidateNested() @Type(() => SiteSpacePositionDto) @IsObject() position?: SiteSpacePositionDto;
}

export class GroupPointerDto {
  @ApiProperty({ enum: ['site-section', 'site-section-group'] })
  @IsIn(['site-section', 'site-section-group'])
  type: 'site-section' | 'site-section-group';
  @IsString() @MinLength(1) @MaxLength(200) id: string;
}
export class GroupPositionDto {
  @Optional() @ValidateNested() @Type(() => GroupPointerDto) @IsObject() before?: GroupPointerDto;
  @Optional() @ValidateNested() @Type(() => GroupPointerDto) @IsObject() after?: GroupPointerDto;
}
export class MoveGroupDto {
  @Optional() @ValidateNested() @Type(() => GroupPositionDto) @IsObject() position?: GroupPositionDto;
}

export class CreateShareLinkDto {
  @IsString() @MaxLength(SHARE_LINK_NAME_MAX) name: string;
}

export class UpdateShareLinkDto {
  @Optional() @IsBoolean() active?: boolean;
  @Optional() @IsString() @MaxLength(SHARE_LINK_NAME_MAX) name?: string;
}

export class UpdateAdaptiveSchemaDto {
  /** JSON Schema draft-07: `type` object, `additionalProperties` false, boolean claims with a description, and `unsigned` */
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  jsonSchema: Record<string, unknown>;
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

/** Where a published site lives: its proxy, else its hostname (and basename), else under Quire's own URL. */
export function publishedBase(site: Site, links: Links): string {
  const own = `${links.origin}/sites/${site.id}`;
  const base = site.proxy ? `https://${site.proxy}` : site.hostname ? `https://${site.hostname}` : own;
  return site.basename && !site.proxy ? `${base}/${site.basename}/` : `${base}/`;
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
      preview: `${links.origin}/sites/${site.id}/~preview/${previews.token(site.id)}/`,
    },
  };
  if (site.hostname) dto.hostname = site.hostname;
  if (site.basename) dto.basename = site.basename;
  if (site.proxy) dto.proxy = { origin: site.proxy, target: `${links.origin}/sites/${site.id}/` };
  if (site.published) dto.urls.published = publishedBase(site, links);
  return dto;
}

export class PublishedUrlDto {
  @ApiPropertyOptional({ format: 'uri' }) published?: string;
}

export class SiteSpaceDto {
  @ApiProperty({ enum: ['site-space'] }) object: 'site-space';
  id: string;
  path: string;
  /** The section holding it (absent at the root) */
  section?: string;
  space: SpaceDto;
  /** The space's title */
  title: string;
  default: boolean;
  condition?: string;
  draft: boolean;
  hasAdvancedCustomizationFeature: boolean;
  urls: PublishedUrlDto;
}

export class SiteSectionDto {
  @ApiProperty({ enum: ['site-section'] }) object: 'site-section';
  id: string;
  title: string;
  description?: string;
  default: boolean;
  draft: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  siteSpaces: SiteSpaceDto[];
  urls: PublishedUrlDto;
  icon?: string;
}

@ApiExtraModels(SiteSectionDto)
export class SiteSectionGroupDto {
  @ApiProperty({ enum: ['site-section-group'] }) object: 'site-section-group';
  id: string;
  title: string;
  /** The parent group */
  sectionGroup?: string;
  draft: boolean;
  /** Deprecated: the sections directly in the group (use `children`) */
  @ApiProperty({ type: [SiteSectionDto], deprecated: true }) sections: SiteSectionDto[];
  /** Sections and groups directly in the group, in order */
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(SiteSectionDto) }, { $ref: getSchemaPath(SiteSectionGroupDto) }] },
  })
  children: (SiteSectionDto | SiteSectionGroupDto)[];
  icon?: string;
}

@ApiExtraModels(SiteSectionDto, SiteSectionGroupDto, SiteSpaceDto)
export class SiteStructureDto {
  @ApiProperty({ enum: ['sections', 'siteSpaces'] }) type: 'sections' | 'siteSpaces';
  /** Sections and groups (type sections) or site spaces (type siteSpaces), in order */
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [{ $ref: getSchemaPath(SiteSectionDto) }, { $ref: getSchemaPath(SiteSectionGroupDto) }, { $ref: getSchemaPath(SiteSpaceDto) }],
    },
  })
  structure: (SiteSectionDto | SiteSectionGroupDto | SiteSpaceDto)[];
}

export class ShareLinkDto {
  @ApiProperty({ enum: ['share-link'] }) object: 'share-link';
  id: string;
  createdAt: string;
  name: string;
  active: boolean;
  /** The secret visitors present as `shareKey` (admins only) */
  key?: string;
  /** `published`: the site's URL carrying the key (admins only, published sites) */
  urls: PublishedUrlDto;
}

export function toShareLinkDto(link: ShareLink, site: Site, showKey: boolean, links: Links): ShareLinkDto {
  const dto: ShareLinkDto = {
    object: 'share-link',
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    name: link.name,
    active: link.active,
    urls: {},
  };
  if (showKey) {
    dto.key = link.key;
    if (site.published) dto.urls.published = `${publishedBase(site, links)}?shareKey=${encodeURIComponent(link.key)}`;
  }
  return dto;
}

export class AdaptiveSchemaDto {
  @ApiProperty({ enum: ['site-adaptive-schema'] }) object: 'site-adaptive-schema';
  @ApiProperty({ type: 'object', additionalProperties: true }) jsonSchema: object;
  updatedAt: string;
}

export class TemplateConditionDto {
  description: string;
  condition: string;
}

export class TemplateConditionsDto {
  items: TemplateConditionDto[];
}

export class PublishedCustomizationsDto {
  @ApiProperty({ type: 'object', additionalProperties: true }) site: object;
  @ApiProperty({ type: 'object', additionalProperties: true }) siteSpaces: Record<string, object>;
}

export class PublishedSiteDto {
  @ApiProperty({ enum: ['published-content-site'] }) object: 'published-content-site';
  site: SiteDto;
  structure: SiteStructureDto;
  customizations: PublishedCustomizationsDto;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) scripts: never[];
}

// ---------------------------------------------------------------------------------------------
// Presenting the structure

/** Builds structure DTOs for one site: URLs from where the site is published, spaces from the views given. */
export class StructurePresenter {
  private readonly base: string | undefined;

  constructor(
    private readonly site: Site,
    /** The spaces with the caller's role on each (null: closed to them, all permissions false). */
    private readonly spaces: Map<string, { space: SpaceView['space']; role: Role | null }>,
    private readonly links: Links,
    /** The role every space is presented with instead (`read` for what visitors see). */
    private readonly role?: Role,
  ) {
    this.base = site.published ? publishedBase(site, links) : undefined;
  }

  siteSpace(node: SiteSpaceNode, section?: SectionNode): SiteSpaceDto | null {
    const view = this.spaces.get(node.spaceId);
    if (!view) return null; // the space left meanwhile (SitesFollowSpaces removes the site space)
    const dto: SiteSpaceDto = {
      object: 'site-space',
      id: node.id,
      path: node.path,
      space: toSpaceDto(view.space, this.role ?? view.role, this.links),
      title: view.space.title,
      default: node.default,
      draft: false,
      hasAdvancedCustomizationFeature: false,
      urls: {},
    };
    if (section) dto.section = section.id;
    if (node.condition !== undefined) dto.condition = node.condition;
    const at = section ? this.sectionUrl(section) : this.base;
    if (at !== undefined) dto.urls.published = node.default ? at : `${at}${encodeURIComponent(node.path)}/`;
    return dto;
  }

  private sectionUrl(section: SectionNode): string | undefined {
    if (this.base === undefined) return undefined;
    return section.default ? this.base : `${this.base}${encodeURIComponent(section.path)}/`;
  }

  section(section: SectionNode, group?: GroupNode): SiteSectionDto {
    const dto: SiteSectionDto = {
      object: 'site-section',
      id: section.id,
      title: section.title,
      default: section.default,
      draft: false,
      path: section.path,
      siteSpaces: section.siteSpaces.map((s) => this.siteSpace(s, section)).filter((s): s is SiteSpaceDto => s !== null),
      urls: {},
    };
    if (section.description !== undefined) dto.description = section.description;
    if (section.condition !== undefined) dto.condition = section.condition;
    if (group) dto.sectionGroup = group.id;
    if (section.icon !== undefined) dto.icon = section.icon;
    const url = this.sectionUrl(section);
    if (url !== undefined) dto.urls.published = url;
    return dto;
  }

  group(group: GroupNode, parent?: GroupNode): SiteSectionGroupDto {
    const children = group.children.map((c) => (c.kind === 'section' ? this.section(c, group) : this.group(c, group)));
    const dto: SiteSectionGroupDto = {
      object: 'site-section-group',
      id: group.id,
      title: group.title,
      draft: false,
      sections: children.filter((c): c is SiteSectionDto => c.object === 'site-section'),
      children,
    };
    if (parent) dto.sectionGroup = parent.id;
    if (group.icon !== undefined) dto.icon = group.icon;
    return dto;
  }

  item(item: TopItem, parent?: GroupNode): SiteSectionDto | SiteSectionGroupDto {
    return item.kind === 'section' ? this.section(item, parent) : this.group(item, parent);
  }

  structure(structure: Structure): SiteStructureDto {
    if (structure.items.length > 0) return { type: 'sections', structure: structure.items.map((i) => this.item(i)) };
    return {
      type: 'siteSpaces',
      structure: structure.siteSpaces.map((s) => this.siteSpace(s)).filter((s): s is SiteSpaceDto => s !== null),
    };
  }
}
