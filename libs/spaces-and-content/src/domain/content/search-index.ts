import type { CursorField, Narrowing, PageRequest } from '@app/shared-kernel';

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

/**
 * Excerpts are highlighted by PostgreSQL between two private-use characters (stripped from the text
 * first, so only Quire's own marks remain); the text is then HTML-escaped and the marks become
 * `<mark>`/`</mark>`. Page text that contains markup (`<script>`) reaches clients as text.
 */
export const MARK_START = '\uE000';
export const MARK_STOP = '\uE001';

export function markExcerpt(raw: string): string {
  return raw
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replaceAll(MARK_START, '<mark>')
    .replaceAll(MARK_STOP, '</mark>');
}

export interface IndexState {
  revision: string;
  /** The text-search configuration the rows were built with (follows the space's language). */
  config: string;
}

/** `revision|config`: what the index of a space holds; equal versions mean equal search results. */
export function indexVersion(state: { revision: string; config: string }): string {
  return `${state.revision}|${state.config}`;
}

export interface SpaceResults {
  /** The index version the results were read from (null: the space was never indexed). */
  version: string | null;
  /** False when part of the result (the count past the last page) was read in another snapshot. */
  cacheable: boolean;
  count: number;
  hits: PageHit[];
}

/** Search result cursors: [rank, page or space id, one-based position of the last hit]. */
export const HIT_CURSOR: readonly CursorField[] = ['number', 'text', 'int'];

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
    expected: string | null,
    next: IndexState,
    /** Pages whose rows are replaced by `rows`, or 'all': every row of the space. */
    replace: string[] | 'all',
    rows: SectionRow[],
  ): Promise<boolean>;
  abstract moveSpace(spaceId: string, organizationId: string): Promise<void>;
  abstract searchSpace(spaceId: string, config: string, query: string, page: PageRequest): Promise<SpaceResults>;
  abstract searchOrganization(
    organizationId: string,
    queryFor: (config: string) => string,
    page: PageRequest,
    narrowing?: Narrowing,
  ): Promise<{ count: number; hits: SpaceHit[] }>;
}
