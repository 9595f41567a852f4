import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { Links, ListQueryDto, Optional } from '@app/http-kit';
import { Site } from '../domain/site';
import { SHARE_LINK_NAME_MAX, ShareLink } from '../domain/site-repository';
import { PublishedUrlDto } from './site-structure.dto';
import { publishedRoot } from '../domain/site-urls';

/** listSiteShareLinks: the list's page and limit, and the official `search`. */
export class ListShareLinksQueryDto extends ListQueryDto {
  /** Only the share links whose name contains this (case-insensitive), or, for those who may see keys, whose key is this */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) search?: string;
}

export class CreateShareLinkDto {
  @IsString() @MaxLength(SHARE_LINK_NAME_MAX) name: string;
}

export class UpdateShareLinkDto {
  @Optional() @IsBoolean() active?: boolean;
  @Optional() @IsString() @MaxLength(SHARE_LINK_NAME_MAX) name?: string;
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
    if (site.published) dto.urls.published = `${publishedRoot(site, links.origin)}?shareKey=${encodeURIComponent(link.key)}`;
  }
  return dto;
}
