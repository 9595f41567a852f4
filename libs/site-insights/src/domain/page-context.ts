import bm25 from 'wink-bm25-text-search';

/**
 * A page of the site, as topics read it: its terms (the clustering's analyzer: tokenized, stop words out,
 * stemmed), from its title and its text, and the group it sits in (its top-level ancestor in the space's table
 * of contents, or none).
 */
export interface ContextPage {
  /** `{spaceId} {pageId}`. */
  id: string;
  group: string | null;
  titleTerms: string[];
  textTerms: string[];
}

/** How many of the pages a query finds lead it: chosen on the first held-out corpus of visitor queries (docs/insights.md). */
export const CONTEXT_PAGES = 5;
/** A page's group weighs this much of the page (two pages of one group are closer than two of two groups). */
export const GROUP_WEIGHT = 0.5;
/** A title word counts as this many of the text's (BM25 field weights). */
const TITLE_WEIGHT = 2;
/** Fewer pages than this make no index (BM25 needs a few to know which words are common). */
export const CONTEXT_PAGES_MIN = 3;

/**
 * Where a visitor's query leads on the site: the pages a loose search (BM25, any of its words, titles counting
 * double) finds for it, the best `CONTEXT_PAGES`, each weighted by its score against the best one's, with their
 * groups. A query that found nothing on the site's own search (it wants every word) often finds pages this
 * way; two queries that lead to the same pages are about the same thing, even in other words.
 */
export class PageIndex {
  private constructor(
    private readonly engine: ReturnType<typeof bm25>,
    private readonly pages: Map<string, ContextPage>,
  ) {}

  /** The index of these pages, or null when there are too few to rank (`CONTEXT_PAGES_MIN`). */
  static of(pages: readonly ContextPage[]): PageIndex | null {
    const withTerms = pages.filter((p) => p.titleTerms.length + p.textTerms.length > 0);
    if (withTerms.length < CONTEXT_PAGES_MIN) return null;
    const engine = bm25();
    engine.defineConfig({ fldWeights: { title: TITLE_WEIGHT, text: 1 } });
    // The terms are analyzed already: a space between each.
    engine.definePrepTasks([(text) => text.split(' ').filter(Boolean)]);
    for (const p of withTerms) engine.addDoc({ title: p.titleTerms.join(' '), text: p.textTerms.join(' ') }, p.id);
    engine.consolidate();
    return new PageIndex(engine, new Map(withTerms.map((p) => [p.id, p])));
  }

  /** A query's context (`page {id}` and `group {title}` terms, weighted), from its analyzed terms; empty when it finds no page. */
  context(terms: readonly string[]): Record<string, number> {
    const found = terms.length ? this.engine.search(terms.join(' '), CONTEXT_PAGES) : [];
    const best = found[0]?.[1] ?? 0;
    const context: Record<string, number> = {};
    if (!(best > 0)) return context;
    for (const [id, score] of found) {
      const weight = score / best;
      context[`page ${id}`] = weight;
      const group = this.pages.get(id)?.group;
      if (group) context[`group ${group}`] = (context[`group ${group}`] ?? 0) + GROUP_WEIGHT * weight;
    }
    return context;
  }
}

/**
 * The pages visitors opened next after a query, as context: `page {id}` terms weighted by how often, against the
 * most frequent (what visitors settled for says where the answer was, or should be).
 */
export function nextPagesContext(next: readonly { space: string; page: string; count: number }[]): Record<string, number> {
  const most = Math.max(0, ...next.map((n) => n.count));
  const context: Record<string, number> = {};
  if (most <= 0) return context;
  for (const n of next) context[`page ${n.space} ${n.page}`] = (context[`page ${n.space} ${n.page}`] ?? 0) + n.count / most;
  return context;
}
