import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/shared-kernel';
import { locate } from '@app/content-model';
import { ContentService, SpacesService, type Space } from '@app/spaces-and-content';
import { TranslationRepository } from '../domain/translation';

/** A page reference (official `ContentRefPage`): the page, in that space. */
export interface PageRef {
  kind: 'page';
  page: string;
  space: string;
}

/**
 * A page's meta links (#52, the official `RevisionPageMetaLinks`): since a translation keeps its source's page
 * ids, a page's `alternates` are the same page in the other versions of its space: the source of a translation
 * it belongs to (as source or target) and every target a run has written. Only spaces the caller reads whose
 * current content has the page are named, oldest space first. No page sets a canonical link in Quire: the
 * page's own URL is canonical, so `canonical` is left out. Served here, by the context that knows translations
 * and depends on the content context (the content context never calls this one).
 */
@Injectable()
export class TranslationVersions {
  constructor(
    private readonly translations: TranslationRepository,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
  ) {}

  /** The meta links of a page of `space` at `revisionId` (a revision the caller reads there); 404 when the page is not in it. */
  async metaLinks(actor: Actor, space: Space, revisionId: string, pageId: string): Promise<{ alternates: PageRef[] }> {
    await this.content.page(space, revisionId, pageId);
    const versions = (await this.translations.versionsOf(space.organizationId, space.id)).filter((id) => id !== space.id);
    if (versions.length === 0) return { alternates: [] };
    const readable = await this.spaces.viewsOf(actor, space.organizationId, versions);
    const found = await Promise.all(
      [...readable.values()].map(async ({ space: version }) => {
        const revision = await this.content.revision(version.id, version.revision);
        return locate(revision.tree, pageId) ? version : null;
      }),
    );
    return {
      alternates: found
        .filter((v) => v !== null)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map((v) => ({ kind: 'page' as const, page: pageId, space: v.id })),
    };
  }
}
