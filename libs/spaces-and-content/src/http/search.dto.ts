import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Links, ListQueryDto } from '@app/http-kit';
import type { PageHit } from '../domain/content/search-index';
import { SEARCH_QUERY_MAX } from '@app/content-model';

export class SearchQueryDto extends ListQueryDto {
  /** Words to find (web-search syntax: "quoted phrases", OR, -excluded) */
  @IsString()
  @MinLength(1)
  @MaxLength(SEARCH_QUERY_MAX)
  query: string;
}

export class SearchSectionDto {
  id: string;
  title: string;
  path: string;
  score: number;
  @ApiProperty({ enum: ['page', 'section'] }) resultType: 'page' | 'section';
  /** Excerpt with the matches in <mark> */
  body: string;
  @ApiProperty({ type: 'object', properties: { app: { type: 'string', format: 'uri' } } }) urls: { app: string };
}

export class SearchAncestorDto {
  @ApiPropertyOptional() id?: string;
  title: string;
}

export class SearchPageDto {
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  /** One-based position in the whole ranked result */
  rank: number;
  @ApiProperty({ enum: ['page', 'section'] }) resultType: 'page' | 'section';
  @ApiProperty({ type: [SearchSectionDto] }) sections: SearchSectionDto[];
  @ApiProperty({ type: [SearchAncestorDto] }) ancestors: SearchAncestorDto[];
  @ApiProperty({ type: 'object', properties: { app: { type: 'string', format: 'uri' } } }) urls: { app: string };
}

export class SearchSpaceDto {
  @ApiProperty({ enum: ['space'] }) type: 'space';
  id: string;
  title: string;
  score: number;
  @ApiProperty({ type: [SearchPageDto] }) pages: SearchPageDto[];
}

export function pageHit(spaceId: string, h: PageHit, rank: number, links: Links): SearchPageDto {
  const pageUrl = links.app(`/s/${spaceId}/${h.pagePath}`);
  const titleMatch = h.sections.some((s) => s.section === 0 && !s.excerpt.includes('<mark>'));
  return {
    id: h.pageId,
    title: h.pageTitle,
    description: h.pageDescription,
    path: h.pagePath,
    score: Number(h.rank),
    rank,
    resultType: titleMatch ? 'page' : 'section',
    sections: h.sections.map((s) => ({
      id: s.anchor ? `${h.pageId}#${s.anchor}` : h.pageId,
      title: s.title,
      path: s.anchor ? `${h.pagePath}#${s.anchor}` : h.pagePath,
      score: Number(h.rank),
      resultType: s.excerpt.includes('<mark>') ? 'section' : 'page',
      body: s.excerpt,
      urls: { app: s.anchor ? `${pageUrl}#${s.anchor}` : pageUrl },
    })),
    ancestors: h.ancestors,
    urls: { app: pageUrl },
  };
}
