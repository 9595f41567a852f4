import { DomainError, stepwise, timeSlices } from '@app/shared-kernel';
import type { TextClustering } from '@app/conversations';
import type { SitePageText } from '@app/sites-and-publishing';
import { identifierWords, PageIndex, Passage } from '../domain/page-context';

/**
 * What topics compute, and nothing else (no database, no bookkeeping): a site's pages indexed as passages, where
 * query texts lead in them, the clusters of the queries. Its work holds a CPU for seconds on a large site
 * (docs/insights.md), so the built server runs it in a worker thread (`WorkerTopicsEngine`) and the API's thread
 * keeps answering pages; `LocalTopicsEngine` runs it in the caller's thread, in time slices.
 */
export abstract class TopicsEngine {
  /**
   * Indexes a site's pages (as passages with their terms; no index when there are too few to rank), replacing what
   * it held for the site. Until it resolves, the site's earlier index (if any) is what `contexts` reads; of two
   * builds of a site at once, the one asked for last is kept. A `TopicsIndexLost` if the engine ends meanwhile.
   */
  abstract index(siteId: string, pages: readonly SitePageText[]): Promise<void>;
  /** Forgets a site's index, and a build of it under way. */
  abstract drop(siteId: string): Promise<void>;
  /**
   * Where each query text leads in the site's index (`PageIndex.context`), in order; empty contexts for a site
   * with none. A site it does not hold (never indexed, dropped, or lost with a worker) is a `TopicsIndexLost`.
   */
  abstract contexts(siteId: string, texts: readonly string[]): Promise<Record<string, number>[]>;
  /**
   * The clusters of the texts with their contexts (`TextClustering.cluster`): each text's cluster, as an index. A
   * `TopicsUnavailable` if the engine ends meanwhile.
   */
  abstract cluster(texts: readonly string[], contexts: readonly Readonly<Record<string, number>>[]): Promise<number[]>;
  /** Stops what it runs (a worker); nothing to do in the caller's thread. */
  abstract close(): Promise<void>;
}

/**
 * The engine cannot compute topics now (its worker ended, out of memory for one): a read may be tried again (503).
 * The caller is told no more; `why` is for the logs.
 */
export class TopicsUnavailable extends DomainError {
  constructor(readonly why: string) {
    super('unavailable', 'Topics cannot be computed now (the topics worker stopped): try again later');
  }
}

/** The engine no longer holds the site's index (its worker ended): index the site again. */
export class TopicsIndexLost extends Error {
  override readonly name = 'TopicsIndexLost';

  constructor(readonly siteId: string) {
    super(`The topics index of site "${siteId}" is not held: index it again`);
  }
}

/**
 * The engine in the caller's thread: requests get a turn once a time slice (15 ms) between its steps, but for
 * one (BM25's consolidation of the whole index, about 0.7 s on 18,000 passages).
 */
export class LocalTopicsEngine extends TopicsEngine {
  private readonly indexes = new Map<string, PageIndex | null>();
  /**
   * The builds under way: each site's last one asked for (a number that grows). An entry lives only while that build
   * runs: one that ends finding another number, or none (a drop, or a later build that ended first), is not kept.
   */
  private readonly building = new Map<string, number>();
  private asks = 0;

  constructor(private readonly clustering: TextClustering) {
    super();
  }

  async index(siteId: string, pages: readonly SitePageText[]): Promise<void> {
    const build = ++this.asks;
    this.building.set(siteId, build);
    try {
      const index = await stepwise(PageIndex.building(await this.analyzed(pages)));
      // Two builds of a site at once: the one asked for last is kept, whichever ends last.
      if (this.building.get(siteId) === build) this.indexes.set(siteId, index);
    } finally {
      if (this.building.get(siteId) === build) this.building.delete(siteId);
    }
  }

  drop(siteId: string): Promise<void> {
    this.indexes.delete(siteId);
    // A build under way is not kept either.
    this.building.delete(siteId);
    return Promise.resolve();
  }

  async contexts(siteId: string, texts: readonly string[]): Promise<Record<string, number>[]> {
    if (!this.indexes.has(siteId)) throw new TopicsIndexLost(siteId);
    const index = this.indexes.get(siteId);
    const contexts: Record<string, number>[] = [];
    // A search of a large site's index takes milliseconds: requests get a turn between them.
    const slice = timeSlices();
    for (const text of texts) {
      await slice();
      contexts.push(index ? index.context(await this.clustering.terms(identifierWords(text))) : {});
    }
    return contexts;
  }

  cluster(texts: readonly string[], contexts: readonly Readonly<Record<string, number>>[]): Promise<number[]> {
    return this.clustering.cluster(texts, contexts);
  }

  close(): Promise<void> {
    this.indexes.clear();
    // A build under way is not kept either.
    this.building.clear();
    return Promise.resolve();
  }

  /** The pages as passages with their terms. */
  private async analyzed(pages: readonly SitePageText[]): Promise<Passage[]> {
    const passages: Passage[] = [];
    // Requests get a turn between passages, once a slice (a page's text is up to 200,000 characters in all).
    const slice = timeSlices();
    for (const p of pages) {
      for (const [n, passage] of p.passages.entries()) {
        await slice();
        passages.push({
          id: `${p.space} ${p.page}#${n}`,
          page: `${p.space} ${p.page}`,
          group: p.group,
          titleTerms: await this.clustering.terms(identifierWords(passage.title)),
          textTerms: await this.clustering.terms(identifierWords(passage.text)),
        });
      }
    }
    return passages;
  }
}
