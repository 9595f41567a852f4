import bm25 from 'wink-bm25-text-search';

/**
 * A passage of the site, as topics read it: a page's text before its first heading, or one of its sections (a
 * heading and what follows, as the site's search cuts pages), with its terms (the clustering's analyzer:
 * tokenized, stop words out, stemmed) and where it sits: its page and the page's group (the top-level entry of
 * the space's table of contents it is under, or none).
 */
export interface Passage {
  /** `{spaceId} {pageId}#{n}`. */
  id: string;
  /** `{spaceId} {pageId}`. */
  page: string;
  group: string | null;
  titleTerms: string[];
  textTerms: string[];
}

/**
 * How many of the passages a query finds lead it, and how much a passage's group weighs of it: chosen on the
 * first two corpora of visitor queries, measured on the third (docs/insights.md).
 */
export const CONTEXT_PASSAGES = 5;
export const GROUP_WEIGHT = 0.5;
/** A title word counts as this many of the text's (BM25 field weights). */
const TITLE_WEIGHT = 2;
/** Fewer passages than this make no index (BM25 needs a few to know which words are common). */
export const CONTEXT_PASSAGES_MIN = 3;

/**
 * Where a visitor's query leads on the site: the passages a loose search (BM25, any of its words, titles
 * counting double) finds for it, the best `CONTEXT_PASSAGES`, each weighted by its score against the best one's,
 * with their pages (the best of their passages' weights) and groups (half of it, added up). A query that found
 * nothing on the site's own search (it wants every word) often finds passages this way; two queries that lead
 * to the same places are about the same thing, even in other words. Passages rather than whole pages: a long
 * page on many subjects would lead every query to it.
 */
export class PageIndex {
  private constructor(
    private readonly engine: ReturnType<typeof bm25>,
    private readonly passages: Map<string, { page: string; group: string | null }>,
  ) {}

  /** The index of these passages, or null when there are too few to rank (`CONTEXT_PASSAGES_MIN`). */
  static of(passages: readonly Passage[]): PageIndex | null {
    const steps = PageIndex.building(passages);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** `of` in steps, one a passage: a large site's index is built between the requests its process answers. */
  static *building(passages: readonly Passage[]): Generator<void, PageIndex | null> {
    const withTerms = passages.filter((p) => p.titleTerms.length + p.textTerms.length > 0);
    if (withTerms.length < CONTEXT_PASSAGES_MIN) return null;
    const engine = bm25();
    engine.defineConfig({ fldWeights: { title: TITLE_WEIGHT, text: 1 } });
    // The terms are analyzed already: a space between each.
    engine.definePrepTasks([(text) => text.split(' ').filter(Boolean)]);
    for (const p of withTerms) {
      engine.addDoc({ title: p.titleTerms.join(' '), text: p.textTerms.join(' ') }, p.id);
      yield;
    }
    engine.consolidate();
    // Only where each passage sits is kept; its terms are the engine's.
    return new PageIndex(engine, new Map(withTerms.map((p) => [p.id, { page: p.page, group: p.group }])));
  }

  /** A query's context (`passage …`, `page …` and `group …` terms, weighted), from its analyzed terms; empty when it finds nothing. */
  context(terms: readonly string[]): Record<string, number> {
    const found = terms.length ? this.engine.search(terms.join(' '), CONTEXT_PASSAGES) : [];
    const best = found[0]?.[1] ?? 0;
    const context: Record<string, number> = {};
    if (!(best > 0)) return context;
    for (const [id, score] of found) {
      const weight = score / best;
      const passage = this.passages.get(id)!;
      context[`passage ${id}`] = weight;
      context[`page ${passage.page}`] = Math.max(context[`page ${passage.page}`] ?? 0, weight);
      if (passage.group) context[`group ${passage.group}`] = (context[`group ${passage.group}`] ?? 0) + GROUP_WEIGHT * weight;
    }
    return context;
  }
}

/**
 * A site's pages as far as `max` passages, in the site's order (the last one kept cut to its first passages): what
 * one site's index holds at most.
 */
export function withinPassages<P extends { passages: readonly unknown[] }>(pages: readonly P[], max: number): P[] {
  const kept: P[] = [];
  let room = max;
  for (const page of pages) {
    if (room <= 0) break;
    kept.push(page.passages.length <= room ? page : { ...page, passages: page.passages.slice(0, room) });
    room -= Math.min(room, page.passages.length);
  }
  return kept;
}

/**
 * Which of the sites' indexes a process keeps (oldest read first) to drop so that those left hold at most
 * `limits.passages` passages and are at most `limits.sites`, the oldest first; one marked `keep` (the site being
 * read) stays, however large, and one that holds no passage yet (its pages not read) goes only for its place.
 */
export function indexesToDrop(
  kept: readonly { id: string; passages: number; keep: boolean }[],
  limits: { passages: number; sites: number },
): string[] {
  let held = kept.reduce((sum, k) => sum + k.passages, 0);
  let sites = kept.length;
  const dropped: string[] = [];
  for (const k of kept) {
    const tooMany = sites > limits.sites;
    if (held <= limits.passages && !tooMany) break;
    // One whose pages are not read yet holds nothing to free but its place.
    if (k.keep || (k.passages === 0 && !tooMany)) continue;
    held -= k.passages;
    sites -= 1;
    dropped.push(k.id);
  }
  return dropped;
}

/**
 * What a memo of where query texts led holds of `texts` (`known`), and the texts it does not (`unknown`, to be
 * searched). Read whole before anything is put back, so that putting back cannot push out a text of the same read.
 */
export function recall<V>(memo: ReadonlyMap<string, V>, texts: readonly string[]): { known: Map<string, V>; unknown: string[] } {
  const known = new Map<string, V>();
  const unknown: string[] = [];
  for (const text of new Set(texts)) {
    const value = memo.get(text);
    if (value === undefined) unknown.push(text);
    else known.set(text, value);
  }
  return { known, unknown };
}

/**
 * Puts a read's texts back in a memo kept read-last-dropped-last (a map whose first entries go first when it is
 * full, as `BoundedMap`'s): each moved to the end, so the texts of the ranges read lately stay.
 */
export function remember<V>(memo: Map<string, V>, entries: Iterable<[string, V]>): void {
  for (const [text, value] of entries) {
    memo.delete(text);
    memo.set(text, value);
  }
}

/**
 * The pages visitors opened next after a query, as context: a `page {spaceId} {pageId}` term for each, at full
 * weight (which pages, not how often: a visit more does not cluster the queries again).
 */
export function nextPagesContext(next: readonly { space: string; page: string }[]): Record<string, number> {
  return Object.fromEntries(next.map((n) => [`page ${n.space} ${n.page}`, 1]));
}

/**
 * The queries' contexts weighted by how rare each term is among them: a term's weight times
 * √ln(1 + n / df) (n queries, df of them with the term). A page or group most queries lead to (a site's
 * overview, a large group) then joins fewer of them into one topic than a passage only a few find; a term all
 * share keeps some weight (with a few queries that all lead to one page, that page is their topic). Chosen on
 * the first three corpora of visitor queries, measured on the fourth (docs/insights.md).
 */
export function byRarity(contexts: readonly Readonly<Record<string, number>>[]): Record<string, number>[] {
  const df = new Map<string, number>();
  for (const c of contexts) for (const t of Object.keys(c)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = contexts.length;
  return contexts.map((c) => Object.fromEntries(Object.entries(c).map(([t, w]) => [t, w * Math.sqrt(Math.log(1 + n / df.get(t)!))])));
}

/** A word whose letters turn from lowercase to uppercase: an identifier written in camelCase or PascalCase. */
const CAMEL = /[A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*/g;

/**
 * A visitor's query or a site's passage with each camelCase or PascalCase identifier followed by its words
 * (`setErrorHandler` → `setErrorHandler set Error Handler`, `PowerShell` → `PowerShell Power Shell`): an API name a
 * visitor types meets the prose and the other names that share its words, and a name typed in lowercase
 * (`powershell`) still meets it whole. Acronyms are not split (`JWTs`, `OAuth2`, `HTTPServer`); hyphens, dots and
 * underscores already separate words. Applied to the texts of site insights' topics only: the clustering of
 * conversations reads its texts as they are.
 */
export function identifierWords(text: string): string {
  return text.replace(CAMEL, (word) => `${word} ${word.split(/(?<=[a-z0-9])(?=[A-Z])/).join(' ')}`);
}
