import { Injectable } from '@nestjs/common';
import type { PageTree } from '@app/content-model';
import type { ReaderScope } from '@app/shared-kernel';
import { VisitorApiTokens } from './visitor-api-tokens';
import { VisitorSitesService } from './visitor-sites.service';

/**
 * A visitor's API token made the caller it stands for (the Bearer guard asks): the site's gate is passed again
 * with what the token holds, and the reader sees the spaces the site shows this visitor, at the revision it
 * shows, with the pages and conditional blocks their claims leave (as the site's own pages do). Null when the
 * token is not one, has expired, or the site would no longer let its visitor in.
 */
@Injectable()
export class VisitorReaders {
  constructor(
    private readonly tokens: VisitorApiTokens,
    private readonly sites: VisitorSitesService,
  ) {}

  async reader(token: string): Promise<ReaderScope | null> {
    const sealed = this.tokens.open(token);
    if (!sealed) return null;
    const view = await this.sites.open(sealed.siteId, sealed.credentials, '');
    if (!view || 'signIn' in view) return null;
    const spaces = new Map<string, string>();
    for (const { space } of this.sites.siteSpaces(view)) spaces.set(space.id, space.revision);
    const pages = new Map<string, Promise<ReadonlySet<string>>>();
    return {
      siteId: view.site.id,
      organizationId: view.site.organizationId,
      spaces,
      pages: (spaceId) => {
        let found = pages.get(spaceId);
        if (!found) {
          const space = spaces.has(spaceId) ? view.spaces.get(spaceId) : undefined;
          found = space ? this.sites.revision(view, space).then((r) => idsOf(r.tree)) : Promise.resolve(new Set<string>());
          pages.set(spaceId, found);
        }
        return found;
      },
      holds: (expression) => this.sites.outcomes(view, [expression]) === '1',
    };
  }
}

function idsOf(tree: PageTree): Set<string> {
  const ids = new Set<string>();
  const walk = (nodes: PageTree) => nodes.forEach((n) => (ids.add(n.id), walk(n.pages)));
  walk(tree);
  return ids;
}
