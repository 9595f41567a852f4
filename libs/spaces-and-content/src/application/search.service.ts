import { Injectable } from '@nestjs/common';
import { InvalidInputError, Page, PageRequest, toPage } from '@app/shared-kernel';
import { RevisionRepository } from '../domain/content/revision';
import { searchConfig, sections, SEARCH_QUERY_MAX, withCjkBigrams } from '../domain/content/search';
import { walk } from '../domain/content/tree';
import { SpaceRepository } from '../domain/space';
import { PageHit, SearchIndex, SectionRow, SpaceHit } from '../domain/content/search-index';

const ATTEMPTS = 10;

/**
 * Full-text search over the current revision of each space. The index is brought up to date when a
 * space's content changes (merge, duplicate, language change), page by page, never per query.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly spaces: SpaceRepository,
    private readonly revisions: RevisionRepository,
  ) {}

  /** Brings the index of a space to its current revision, rewriting only the pages that changed. */
  async reindex(spaceId: string): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const space = await this.spaces.findById(spaceId);
      if (!space) return;
      const state = await this.index.state(spaceId);
      if (state?.revision === space.revision) return;
      const revision = await this.revisions.find(space.id, space.revision);
      if (!revision) return;
      const config = searchConfig(space.language);
      const fingerprints: Record<string, string> = {};
      const located: { id: string; title: string; path: string; document: string | null; description: string; ancestors: { id: string; title: string }[] }[] = [];
      const chain = new Map<string, { id: string; title: string }[]>();
      walk(revision.tree, (l) => {
        const ancestors = l.parent ? [...(chain.get(l.parent.id) ?? []), { id: l.parent.id, title: l.parent.title }] : [];
        chain.set(l.node.id, ancestors);
        fingerprints[l.node.id] = `${l.node.document}|${l.node.title}|${l.path}|${config}|${l.node.description ?? ''}|${ancestors.map((a) => a.title).join('/')}`;
        located.push({ id: l.node.id, title: l.node.title, path: l.path, document: l.node.document, description: l.node.description ?? '', ancestors });
      });
      const previous = state?.pages ?? {};
      const changed = located.filter((p) => previous[p.id] !== fingerprints[p.id]);
      const removed = Object.keys(previous).filter((id) => !(id in fingerprints));
      const bodies = await this.revisions.documents(space.organizationId, changed.flatMap((p) => (p.document ? [p.document] : [])));
      const rows: SectionRow[] = changed.flatMap((p) =>
        sections(p.title, p.document ? (bodies.get(p.document) ?? null) : null).map((s) => ({
          pageId: p.id,
          section: s.index,
          pageTitle: p.title,
          pagePath: p.path,
          ancestors: p.ancestors,
          pageDescription: p.description,
          title: s.title,
          anchor: s.anchor,
          body: s.body,
          titleIndexed: withCjkBigrams(s.index === 0 ? s.title : `${p.title} ${s.title}`),
          bodyIndexed: withCjkBigrams(s.body),
        })),
      );
      const ok = await this.index.apply(space, config, state?.revision || null, { revision: space.revision, pages: fingerprints }, [...changed.map((p) => p.id), ...removed], rows);
      if (ok) return;
    }
  }

  moveSpace(spaceId: string, organizationId: string): Promise<void> {
    return this.index.moveSpace(spaceId, organizationId);
  }

  private check(query: string): string {
    const q = query.trim();
    if (!q) throw new InvalidInputError('query must not be empty');
    if (q.length > SEARCH_QUERY_MAX) throw new InvalidInputError(`query must be at most ${SEARCH_QUERY_MAX} characters`);
    return q;
  }

  /** Hits carry their one-based position in the whole ranked result (kept in the cursor across pages). */
  async searchSpace(spaceId: string, language: string | null, query: string, page: PageRequest): Promise<Page<PageHit & { position: number }>> {
    const q = withCjkBigrams(this.check(query));
    const { count, hits } = await this.index.searchSpace(spaceId, searchConfig(language), q, page);
    const base = Number(page.after?.[2] ?? 0);
    return toPage(hits.map((h, i) => ({ ...h, position: base + i + 1 })), page, count, (h) => [h.rank, h.pageId, h.position]);
  }

  async searchOrganization(organizationId: string, query: string, page: PageRequest): Promise<Page<SpaceHit & { position: number }>> {
    const q = withCjkBigrams(this.check(query));
    const { count, hits } = await this.index.searchOrganization(organizationId, () => q, page);
    const base = Number(page.after?.[2] ?? 0);
    return toPage(hits.map((h, i) => ({ ...h, position: base + i + 1 })), page, count, (h) => [h.rank, h.spaceId, h.position]);
  }
}
