import { Injectable } from '@nestjs/common';
import type { Space } from '../domain/space';

/** Where another version of a page may be: a space, and the page's id there. */
export interface PageAlternateCandidate {
  spaceId: string;
  pageId: string;
}

type AlternatesSource = (space: Space, pageId: string) => Promise<PageAlternateCandidate[]>;

/**
 * The other versions of a page (the official `RevisionPageMetaLinks.alternates`): the same page in other
 * spaces. This context does not know which spaces are versions of one another; the contexts that do (the
 * translations context: a translation keeps its source's page ids) provide them here, through this port.
 * Candidates are checked by the reader (RevisionPresenter.metaLinks): the caller must read the space, and
 * the page must be in its current content.
 */
@Injectable()
export class PageAlternates {
  private readonly sources: AlternatesSource[] = [];

  provide(source: AlternatesSource): void {
    this.sources.push(source);
  }

  async of(space: Space, pageId: string): Promise<PageAlternateCandidate[]> {
    const all = (await Promise.all(this.sources.map((s) => s(space, pageId)))).flat();
    const seen = new Set<string>();
    return all.filter((c) => c.spaceId !== space.id && !seen.has(c.spaceId) && (seen.add(c.spaceId), true));
  }
}
