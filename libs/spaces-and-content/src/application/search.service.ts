import { Injectable } from '@nestjs/common';
import { Clock, cursorKey, InvalidInputError, Narrowing, Page, PageRequest, Semaphore, toPage, TtlCache } from '@app/shared-kernel';
import { RevisionRepository } from '../domain/content/revision';
import { searchConfig, sections, SEARCH_QUERY_MAX, withCjkBigrams } from '@app/content-model';
import { PageTree, walk } from '@app/content-model';
import { SpaceRepository } from '../domain/space';
import { HIT_CURSOR, indexVersion, PageHit, SearchIndex, SectionRow, SpaceHit, SpaceResults } from '../domain/content/search-index';

const ATTEMPTS = 10;
const RESULT_CACHE_TTL_MS = 10 * 60_000;

/** Tuning of search (set by the application). */
export abstract class SearchSettings {
  /** Ranking statements run at once by this process (more wait their turn); 0: no limit. */
  abstract readonly concurrency: number;
  /** Result pages kept per (space, index version, query, page); 0 disables the cache. */
  abstract readonly resultCacheEntries: number;
}

/**
 * Full-text search over the current revision of each space. The index is brought up to date when a
 * space's content changes (merge, duplicate, language change), page by page, never per query.
 *
 * Space search results are cached in process under the index version they were read from
 * (`revision|config`, read with the hits in one statement), looked up by the version that matches the
 * space the caller just read (its current revision and language). A merge changes the revision, so
 * the next search misses and ranks again. The cache never serves hits of another version, in one
 * process or many.
 */
@Injectable()
export class SearchService {
  private readonly results: TtlCache<string, SpaceResults>;
  /** A bulkhead: ranking is CPU-bound in PostgreSQL, and a few statements at a time finish sooner than many. */
  private readonly ranking: Semaphore;

  constructor(
    private readonly index: SearchIndex,
    private readonly spaces: SpaceRepository,
    private readonly revisions: RevisionRepository,
    private readonly clock: Clock,
    settings: SearchSettings,
  ) {
    this.results = new TtlCache(settings.resultCacheEntries > 0 ? RESULT_CACHE_TTL_MS : 0, Math.max(1, settings.resultCacheEntries));
    this.ranking = new Semaphore(settings.concurrency);
  }
  /** Ranking statements running now, and callers waiting for a slot (metrics). */
  get load(): { active: number; waiting: number } {
    return this.ranking.load;
  }

  /**
   * Brings the index of a space to its current revision, rewriting only the pages that changed since
   * the revision it holds (both trees are compared in memory; revisions are immutable). Without a
   * previous revision in the same configuration, every row of the space is rewritten.
   */
  async reindex(spaceId: string): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const space = await this.spaces.findById(spaceId);
      if (!space) return;
      const config = searchConfig(space.language);
      const state = await this.index.state(spaceId);
      if (state?.revision === space.revision && state.config === config) return;
      const revision = await this.revisions.find(space.id, space.revision);
      if (!revision) return;
      const now = indexedPages(revision.tree);
      const before = state?.revision && state.config === config ? await this.revisions.find(space.id, state.revision) : null;
      const previous = before ? indexedPages(before.tree).fingerprints : null;
      const changed = previous ? now.pages.filter((p) => previous.get(p.id) !== now.fingerprints.get(p.id)) : now.pages;
      const replace = previous ? [...changed.map((p) => p.id), ...[...previous.keys()].filter((id) => !now.fingerprints.has(id))] : 'all';
      const bodies = await this.revisions.documents(
        space.organizationId,
        changed.flatMap((p) => (p.document ? [p.document] : [])),
      );
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
      const expected = state?.revision ? indexVersion(state) : null;
      if (await this.index.apply(space, expected, { revision: space.revision, config }, replace, rows)) return;
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
  async searchSpace(
    space: { id: string; revision: string; language: string | null },
    query: string,
    page: PageRequest,
  ): Promise<Page<PageHit & { position: number }>> {
    const q = withCjkBigrams(this.check(query));
    const config = searchConfig(space.language);
    const { count, hits } = await this.cachedSearch(space.id, indexVersion({ revision: space.revision, config }), config, q, page);
    const base = Number(cursorKey(page, HIT_CURSOR)?.[2] ?? 0);
    return toPage(
      hits.map((h, i) => ({ ...h, position: base + i + 1 })),
      page,
      count,
      (h) => [h.rank, h.pageId, h.position],
    );
  }

  /**
   * `expected` is the index version that matches the space as the caller read it. Results are cached
   * under it only when the index really was at that version when they were read (same statement), so
   * a hit needs no database round trip and never serves another version's hits. An index found behind
   * the space (a merge re-indexing right now, or a process that stopped before it could) is brought
   * up to date first: search always answers from the space's current revision.
   */
  private async cachedSearch(spaceId: string, expected: string, config: string, query: string, page: PageRequest): Promise<SpaceResults> {
    const key = JSON.stringify([spaceId, expected, query, page.limit, page.after ?? null]);
    const cached = this.results.get(key, this.clock.now().getTime());
    if (cached) return cached;
    const rank = () => this.ranking.run(() => this.index.searchSpace(spaceId, config, query, page));
    let fresh = await rank();
    if (fresh.version !== expected) {
      await this.reindex(spaceId);
      fresh = await rank();
    }
    if (fresh.cacheable && fresh.version === expected) this.results.set(key, fresh, this.clock.now().getTime());
    return fresh;
  }

  async searchOrganization(
    organizationId: string,
    query: string,
    page: PageRequest,
    narrowing: Narrowing = null,
  ): Promise<Page<SpaceHit & { position: number }>> {
    const q = withCjkBigrams(this.check(query));
    const { count, hits } = await this.ranking.run(() => this.index.searchOrganization(organizationId, () => q, page, narrowing));
    const base = Number(cursorKey(page, HIT_CURSOR)?.[2] ?? 0);
    return toPage(
      hits.map((h, i) => ({ ...h, position: base + i + 1 })),
      page,
      count,
      (h) => [h.rank, h.spaceId, h.position],
    );
  }
}

interface IndexedPage {
  id: string;
  title: string;
  path: string;
  document: string | null;
  description: string;
  ancestors: { id: string; title: string }[];
}

/** The pages of a tree as the index sees them, and a fingerprint of what each page's rows depend on. */
function indexedPages(tree: PageTree): { pages: IndexedPage[]; fingerprints: Map<string, string> } {
  const pages: IndexedPage[] = [];
  const fingerprints = new Map<string, string>();
  const chain = new Map<string, { id: string; title: string }[]>();
  walk(tree, (l) => {
    const ancestors = l.parent ? [...(chain.get(l.parent.id) ?? []), { id: l.parent.id, title: l.parent.title }] : [];
    chain.set(l.node.id, ancestors);
    const description = l.node.description ?? '';
    fingerprints.set(l.node.id, `${l.node.document}|${l.node.title}|${l.path}|${description}|${ancestors.map((a) => a.title).join('/')}`);
    pages.push({ id: l.node.id, title: l.node.title, path: l.path, document: l.node.document, description, ancestors });
  });
  return { pages, fingerprints };
}
