import type { Links } from '@app/http-kit';
import type { SpaceHit } from '../domain/content/search-index';
import { pageHit, SearchSpaceDto } from './search.dto';

export { SearchSpaceDto };

/** A space's search hits as the official `SearchSpaceResult` (organization search, and a site's: searchSiteContent). */
export function spaceResult(s: SpaceHit, links: Links): SearchSpaceDto {
  return {
    type: 'space' as const,
    id: s.spaceId,
    title: s.spaceTitle,
    score: Number(s.rank),
    pages: s.pages.map((p, i) => pageHit(s.spaceId, p, i + 1, links)),
  };
}
