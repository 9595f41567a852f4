import type { PageRequest } from '@app/shared-kernel';

export interface SectionRow {
  pageId: string;
  section: number;
  pageTitle: string;
  pagePath: string;
  ancestors: { id: string; title: string }[];
  pageDescription: string;
  title: string;
  anchor: string | null;
  body: string;
  /** Title and body as indexed (with CJK bigrams). */
  titleIndexed: string;
  bodyIndexed: string;
}

export interface IndexState {
  revision: string;
  pages: Record<string, string>;
}

export interface PageHit {
  pageId: string;
  rank: string;
  pageTitle: string;
  pagePath: string;
  pageDescription: string;
  ancestors: { id: string; title: string }[];
  sections: { section: number; title: string; anchor: string | null; excerpt: string }[];
}

export interface SpaceHit {
  spaceId: string;
  spaceTitle: string;
  rank: string;
  pages: PageHit[];
}

/** Port of the full-text index (the adapter is PostgreSQL: tsvector, GIN, ts_rank, ts_headline). */
export abstract class SearchIndex {
  abstract state(spaceId: string): Promise<IndexState | null>;
  abstract apply(
    space: { id: string; organizationId: string },
    config: string,
    expected: string | null,
    next: IndexState,
    replacePages: string[],
    rows: SectionRow[],
  ): Promise<boolean>;
  abstract moveSpace(spaceId: string, organizationId: string): Promise<void>;
  abstract searchSpace(spaceId: string, config: string, query: string, page: PageRequest): Promise<{ count: number; hits: PageHit[] }>;
  abstract searchOrganization(organizationId: string, queryFor: (config: string) => string, page: PageRequest): Promise<{ count: number; hits: SpaceHit[] }>;
}
