import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Page } from '@app/shared-kernel';
import { Links, listEnvelope, ListQueryDto, Optional } from '@app/http-kit';
import { refToUrl, type PageNode } from '@app/content-model';
import { pageDto } from './revision.dto';

export class LinksQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['ok', 'broken', 'in-app'], description: 'Only links with this status' })
  @Optional()
  @IsIn(['ok', 'broken', 'in-app'])
  status?: 'ok' | 'broken' | 'in-app';
}

/** listChangeRequestLinks: the links of a change request, and which broken ones (the official `brokenContext`). */
export class ChangeRequestLinksQueryDto extends LinksQueryDto {
  @ApiPropertyOptional({
    enum: ['change-request', 'space'],
    description: 'Only the broken links the change request broke (`change-request`), or those already broken in the space (`space`)',
  })
  @Optional()
  @IsIn(['change-request', 'space'])
  brokenContext?: 'change-request' | 'space';
}

export class LinkStatsDto {
  total: number;
  @ApiProperty({ type: 'object', properties: { total: { type: 'number' }, changeRequest: { type: 'number' } } }) broken: {
    total: number;
    changeRequest?: number;
  };
}

export class ContentLocationDto {
  @ApiProperty({ enum: ['page', 'url'] }) kind: 'page' | 'url';
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) organization?: object;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) space?: object;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) page?: object;
  @ApiPropertyOptional() url?: string;
}

export class LinkUsageDto {
  @ApiProperty({ enum: ['ok', 'broken', 'in-app'] }) status: string;
  @ApiProperty({ enum: ['reference', 'dependsOn'] }) relation: 'reference';
  @ApiPropertyOptional({ type: ContentLocationDto }) targetReference?: ContentLocationDto;
  @ApiProperty({ type: [ContentLocationDto] }) locationReferences: ContentLocationDto[];
}

export class LinksResponseDto {
  @ApiProperty({ type: [LinkUsageDto] }) items: LinkUsageDto[];
  count: number;
  @ApiPropertyOptional({ type: 'object', properties: { page: { type: 'string' } } }) next?: { page: string };
  stats: LinkStatsDto;
}

/** A page where a link is, or that it leads to (the content context's PageLocation has it). */
export interface PageLocationShape {
  node: PageNode;
  path: string;
}

/** One link of a revision and where it is used (the content context's LinkUsage has it). */
export interface LinkUsageShape {
  status: string;
  link: { kind: string; target: string };
  target: PageLocationShape | null;
  locations: PageLocationShape[];
}

/** A page of a revision's links with their counts (the content context's LinksPage has it). */
export interface LinksPageShape extends Page<LinkUsageShape> {
  stats: { total: number; broken: { total: number; changeRequest?: number } };
}

/** Where content lives, as the official ContentLocation: the organization, the space and the page. */
export interface LocationContext {
  organization: object;
  space: object;
  /** App path of the revision's pages (`/s/<space>` or a change request's). */
  base: string;
  links: Links;
}

export function pageLocation(p: PageLocationShape, ctx: LocationContext): ContentLocationDto {
  return {
    kind: 'page',
    organization: ctx.organization,
    space: ctx.space,
    page: { ...pageDto(p.node, p.path, ctx.base, ctx.links), pages: [] },
  };
}

function usageDto(u: LinkUsageShape, ctx: LocationContext): LinkUsageDto {
  const dto: LinkUsageDto = { status: u.status, relation: 'reference', locationReferences: u.locations.map((l) => pageLocation(l, ctx)) };
  if (u.target) dto.targetReference = pageLocation(u.target, ctx);
  else if (u.link.kind === 'url') dto.targetReference = { kind: 'url', url: u.link.target };
  else
    dto.targetReference = {
      kind: 'url',
      url: refToUrl(u.link.kind === 'page' ? { kind: 'page', page: u.link.target } : { kind: 'file', file: u.link.target }),
    };
  return dto;
}

export function linksResponse(page: LinksPageShape, ctx: LocationContext): LinksResponseDto {
  return { ...listEnvelope(page, (u) => usageDto(u, ctx)), stats: page.stats };
}

export function backlinksResponse(page: Page<PageLocationShape>, ctx: LocationContext) {
  return listEnvelope(page, (p) => pageLocation(p, ctx));
}

/** A meta link's target (official `RevisionPageMetaLinkTarget`; Quire answers page references). */
export class PageMetaLinkTargetDto {
  @ApiProperty({ enum: ['page', 'url'] }) kind: 'page' | 'url';
  @ApiPropertyOptional({ description: 'The page (kind page)' }) page?: string;
  @ApiPropertyOptional({ description: 'The space the page is in (kind page); the current space when absent' }) space?: string;
  @ApiPropertyOptional({ description: 'The URL (kind url)' }) url?: string;
}

/** The official `RevisionPageMetaLinks`: the page's canonical link (Quire sets none) and its alternates (translations). */
export class RevisionPageMetaLinksDto {
  @ApiPropertyOptional({ type: PageMetaLinkTargetDto }) canonical?: PageMetaLinkTargetDto;
  @ApiProperty({ type: [PageMetaLinkTargetDto], description: 'The same page in the spaces that translate this one, or that it translates' })
  alternates: PageMetaLinkTargetDto[];
}
