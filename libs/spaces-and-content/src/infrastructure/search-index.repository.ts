import { Db, narrowingSql } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { cursorKey, type Narrowing, type PageRequest } from '@app/shared-kernel';
import {
  HIT_CURSOR,
  MARK_START,
  MARK_STOP,
  markExcerpt,
  IndexState,
  indexVersion,
  PageHit,
  SearchIndex,
  SectionRow,
  SpaceHit,
  SpaceResults,
} from '../domain/content/search-index';

const HEADLINE = `MaxFragments=1, MaxWords=35, MinWords=12, StartSel=${MARK_START}, StopSel=${MARK_STOP}, FragmentDelimiter=" … "`;
const SECTION_COLUMNS = `s.page_id, s.section, s.page_title, s.page_path, s.page_description, s.ancestors, s.title, s.anchor,
  ts_headline($2::regconfig, translate(s.body, '${MARK_START}${MARK_STOP}', ''), q.q, '${HEADLINE}') AS excerpt`;

/** The query as written ($3) or as corrected ($5: its words matched to the space's title words, see `corrected`). */
const QUERY = '(websearch_to_tsquery($2::regconfig, $3) || websearch_to_tsquery($2::regconfig, $5))';

/** Words of a query or a title as the typo lexicon holds them: lowercase letters and digits, four at least. */
export function lexiconWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((w) => [...w].length >= 4 && [...w].length <= 60);
}

/**
 * Hits of a space: $1 space, $2 config, $3 query, $4 limit (+1), $5 the query corrected; with a cursor, $6 rank
 * and $7 page id.
 * The index version is read by the same statement (same snapshot) as the hits, so a cache keyed by it
 * never serves hits of another version. The LEFT JOIN keeps a row (the version) when nothing matches.
 */
function searchSpaceSql(after: boolean): string {
  const tsquery = `(SELECT ${QUERY})`;
  return `WITH hits AS (
      SELECT h.page_id, h.rank, h.total FROM (
        SELECT s.page_id, max(ts_rank(s.tsv, ${tsquery})) AS rank, count(*) OVER () AS total
        FROM search_sections s
        WHERE s.tsv @@ ${tsquery} AND s.space_id = $1 GROUP BY s.page_id) h
      ${after ? 'WHERE (h.rank, h.page_id COLLATE "C") < ($6::real, $7::text COLLATE "C")' : ''}
      ORDER BY h.rank DESC, h.page_id COLLATE "C" DESC LIMIT $4),
    found AS (
      SELECT h.total::int AS total, h.rank, ts_rank(s.tsv, q.q) AS section_rank, ${SECTION_COLUMNS}
      FROM hits h CROSS JOIN (SELECT ${QUERY} AS q) q
      JOIN search_sections s ON s.space_id = $1 AND s.page_id = h.page_id AND s.tsv @@ q.q)
    SELECT v.version, f.total, f.rank::text AS rank, f.page_id, f.section, f.page_title, f.page_path, f.page_description,
      f.ancestors, f.title, f.anchor, f.excerpt
    FROM (SELECT (SELECT revision || '|' || config FROM search_state WHERE space_id = $1) AS version) v LEFT JOIN found f ON true
    ORDER BY f.rank DESC, f.page_id COLLATE "C" DESC, f.section_rank DESC, f.section`;
}
const SEARCH_SPACE = searchSpaceSql(false);
const SEARCH_SPACE_AFTER = searchSpaceSql(true);

/** Adds a matching section to its page's hit (rows come ordered by page, then section). */
function addSection(hits: PageHit[], r: SectionHitRow & { rank: string }): void {
  let hit = hits[hits.length - 1];
  if (hit?.pageId !== r.page_id) {
    hit = {
      pageId: r.page_id,
      rank: r.rank,
      pageTitle: r.page_title,
      pagePath: r.page_path,
      pageDescription: r.page_description,
      ancestors: r.ancestors,
      sections: [],
    };
    hits.push(hit);
  }
  hit.sections.push({ section: r.section, title: r.title, anchor: r.anchor, excerpt: markExcerpt(r.excerpt) });
}

interface SectionHitRow {
  page_id: string;
  section: number;
  page_title: string;
  page_path: string;
  page_description: string;
  ancestors: { id: string; title: string }[];
  title: string;
  anchor: string | null;
  excerpt: string;
}

/** The search index in PostgreSQL: tsvector + GIN, ranking with ts_rank, excerpts with ts_headline. */
@Injectable()
export class SqlSearchIndex extends SearchIndex {
  constructor(private readonly db: Db) {
    super();
  }

  async state(spaceId: string): Promise<IndexState | null> {
    const rows: IndexState[] = await this.db.query('SELECT revision, config FROM search_state WHERE space_id = $1', [spaceId]);
    return rows[0] ?? null;
  }

  /**
   * Replaces the rows of the given pages and records the new state, only if the index still is at
   * version `expected` (another indexer that got there first wins; the caller re-reads and retries).
   */
  async apply(
    space: { id: string; organizationId: string },
    expected: string | null,
    next: IndexState,
    replace: string[] | 'all',
    rows: SectionRow[],
  ): Promise<boolean> {
    return this.db.transaction(async (em) => {
      await em.query(`INSERT INTO search_state (space_id, revision) VALUES ($1, '') ON CONFLICT DO NOTHING`, [space.id]);
      const [current]: { revision: string; config: string }[] = await em.query(
        'SELECT revision, config FROM search_state WHERE space_id = $1 FOR UPDATE',
        [space.id],
      );
      if ((current.revision ? indexVersion(current) : null) !== expected) return false;
      const config = next.config;
      if (replace === 'all') {
        await em.query('DELETE FROM search_sections WHERE space_id = $1', [space.id]);
        await em.query('DELETE FROM search_words WHERE space_id = $1', [space.id]);
      } else if (replace.length)
        await em.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2::text[])', [space.id, replace]);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        await em.query(
          `INSERT INTO search_sections (organization_id, space_id, page_id, section, page_title, page_path, ancestors,
             page_description, title, anchor, body, config, tsv)
           SELECT $1, $2, p, s, pt, pp, an, pd, t, a, b, $3::regconfig,
                  setweight(to_tsvector($3::regconfig, coalesce(ti, '')), 'A') || setweight(to_tsvector($3::regconfig, coalesce(bi, '')), 'B')
           FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::text[])
             AS x(p, s, pt, pp, t, a, b, ti, bi, an, pd)`,
          [
            space.organizationId,
            space.id,
            config,
            chunk.map((r) => r.pageId),
            chunk.map((r) => r.section),
            chunk.map((r) => r.pageTitle),
            chunk.map((r) => r.pagePath),
            chunk.map((r) => r.title),
            chunk.map((r) => r.anchor),
            chunk.map((r) => r.body),
            chunk.map((r) => r.titleIndexed),
            chunk.map((r) => r.bodyIndexed),
            chunk.map((r) => JSON.stringify(r.ancestors)),
            chunk.map((r) => r.pageDescription),
          ],
        );
      }
      // The typo lexicon: the words of the titles (a word no page has any more only widens a query a little; a full reindex drops it).
      const words = [...new Set(rows.flatMap((r) => lexiconWords(`${r.pageTitle} ${r.title}`)))];
      for (let i = 0; i < words.length; i += 5000)
        await em.query('INSERT INTO search_words (space_id, word) SELECT $1, w FROM unnest($2::text[]) AS w ON CONFLICT DO NOTHING', [
          space.id,
          words.slice(i, i + 5000),
        ]);
      await em.query('UPDATE search_state SET revision = $2, config = $3 WHERE space_id = $1', [space.id, next.revision, next.config]);
      return true;
    });
  }

  async moveSpace(spaceId: string, organizationId: string): Promise<void> {
    await this.db.query('UPDATE search_sections SET organization_id = $2 WHERE space_id = $1', [spaceId, organizationId]);
  }

  /**
   * One round trip: rank the matching pages (best section per page), keep the requested page of them,
   * and join their matching sections with highlighted excerpts. Ranks stay `real` (float4): PostgreSQL
   * prints them exactly (shortest round-trip form), so a cursor compares them back without rounding.
   * Page ids order bytewise (COLLATE "C") so the keyset order does not depend on the server's locale.
   * A named (prepared) statement on TypeORM's pg pool: planned once per connection, not per query (the
   * tsquery is an InitPlan, computed once per execution, which the GIN index takes as its condition).
   */
  async searchSpace(spaceId: string, config: string, query: string, page: PageRequest): Promise<SpaceResults> {
    const values: unknown[] = [spaceId, config, query, page.limit + 1, await this.corrected(spaceId, config, query)];
    const after = cursorKey(page, HIT_CURSOR);
    if (after) values.push(String(after[0]), String(after[1]));
    const rows = await this.db.namedQuery<Partial<SectionHitRow> & { version: string | null; total: number | null; rank: string | null }>(
      page.after ? 'search_space_after' : 'search_space',
      page.after ? SEARCH_SPACE_AFTER : SEARCH_SPACE,
      values,
    );
    const found = rows.filter((r) => r.page_id != null) as (SectionHitRow & { total: number; rank: string })[];
    // Past the last page the count needs its own statement (another snapshot): such a result is not cached.
    const past = !found.length && page.after;
    const count = found[0]?.total ?? (past ? await this.countSpace(spaceId, config, query) : 0);
    const hits: PageHit[] = [];
    for (const r of found) addSection(hits, r);
    return { version: rows[0]?.version ?? null, cacheable: !past, count, hits };
  }

  private async countSpace(spaceId: string, config: string, query: string): Promise<number> {
    const [r] = await this.db.query<{ n: number }[]>(
      `SELECT count(DISTINCT page_id)::int AS n FROM search_sections WHERE space_id = $1 AND tsv @@ ${QUERY.replace('$5', '$4')}`,
      [spaceId, config, query, await this.corrected(spaceId, config, query)],
    );
    return r.n;
  }

  /**
   * The query with each word of four letters or more that is no title word of the space replaced by the most
   * similar one (pg_trgm's `%`: similarity over its threshold, 0.3), when there is one; else the query as it is.
   * One statement, on the trigram index.
   */
  private async corrected(spaceId: string, config: string, query: string): Promise<string> {
    const words = lexiconWords(query).slice(0, 12);
    // A query in web-search syntax (a phrase, an exclusion, `or`) is taken as its writer meant it.
    if (!words.length || /"|(^|\s)-\S|\bor\b/i.test(query)) return query;
    // A word that some section holds (title or body) is no typo; only one that nothing holds is matched.
    const rows = await this.db.namedQuery<{ w: string; best: string | null }>(
      'search_correct',
      `SELECT q.w, CASE WHEN EXISTS (SELECT 1 FROM search_words s WHERE s.space_id = $1 AND s.word = q.w)
           OR EXISTS (SELECT 1 FROM search_sections s WHERE s.space_id = $1 AND s.tsv @@ plainto_tsquery($3::regconfig, q.w)) THEN NULL ELSE
         (SELECT s.word FROM search_words s WHERE s.space_id = $1 AND s.word % q.w ORDER BY similarity(s.word, q.w) DESC, s.word LIMIT 1)
       END AS best
       FROM unnest($2::text[]) AS q(w)`,
      [spaceId, words, config],
    );
    const best = new Map(rows.flatMap((r) => (r.best ? [[r.w, r.best] as [string, string]] : [])));
    if (!best.size) return query;
    return query.replace(/[\p{L}\p{N}]+/gu, (word) => best.get(word.toLowerCase()) ?? word);
  }

  /** Spaces of an organization with matching pages, best first; each with its best pages. */
  async searchOrganization(
    organizationId: string,
    queryFor: (config: string) => string,
    page: PageRequest,
    narrowing: Narrowing = null,
    pagesPerSpace = 5,
  ): Promise<{ count: number; hits: SpaceHit[] }> {
    const configs: { config: string }[] = await this.db.query(
      'SELECT DISTINCT config::text AS config FROM search_sections WHERE organization_id = $1',
      [organizationId],
    );
    if (!configs.length) return { count: 0, hits: [] };
    const params: unknown[] = [organizationId];
    // Spaces closed to the caller are left out before ranking: no hit, title, excerpt or count of theirs.
    const narrowed = narrowingSql('s.space_id', narrowing, params);
    const parts = configs.map(({ config }) => {
      params.push(config, queryFor(config));
      const c = `$${params.length - 1}::regconfig`;
      const q = `websearch_to_tsquery(${c}, $${params.length})`;
      return `SELECT s.space_id, s.page_id, s.config, ts_rank(s.tsv, ${q}) AS r FROM search_sections s
              WHERE s.organization_id = $1 AND s.config = ${c} AND s.tsv @@ ${q}${narrowed}`;
    });
    let after = '';
    const key = cursorKey(page, HIT_CURSOR);
    if (key) {
      params.push(String(key[0]), String(key[1]));
      after = `AND (h.rank, h.space_id COLLATE "C") < ($${params.length - 1}::real, $${params.length} COLLATE "C")`;
    }
    params.push(page.limit + 1);
    const rows: { total: number; space_id: string; title: string; rank: string; config: string }[] = await this.db.query(
      `WITH matches AS (${parts.join(' UNION ALL ')}),
       hits AS (SELECT m.space_id, max(m.r) AS rank, min(m.config::text) AS config, count(*) OVER () AS total FROM matches m
                JOIN spaces sp ON sp.id = m.space_id AND sp.deleted_at IS NULL AND sp.organization_id = $1 GROUP BY m.space_id)
       SELECT h.total::int AS total, h.space_id, sp.title, h.rank::text AS rank, h.config
       FROM hits h JOIN spaces sp ON sp.id = h.space_id WHERE true ${after}
       ORDER BY h.rank DESC, h.space_id COLLATE "C" DESC LIMIT $${params.length}`,
      params,
    );
    const shown = rows.slice(0, page.limit + 1);
    const pages = await this.topPages(
      shown.map((r) => ({ spaceId: r.space_id, config: r.config, query: queryFor(r.config) })),
      pagesPerSpace,
    );
    const hits: SpaceHit[] = shown.map((r) => ({
      spaceId: r.space_id,
      spaceTitle: r.title,
      rank: r.rank,
      pages: pages.get(r.space_id) ?? [],
    }));
    return { count: rows[0]?.total ?? 0, hits };
  }

  /** The best `perSpace` pages of each space, with their matching sections: one statement for all of them. */
  private async topPages(targets: { spaceId: string; config: string; query: string }[], perSpace: number): Promise<Map<string, PageHit[]>> {
    const result = new Map<string, PageHit[]>();
    if (!targets.length) return result;
    const rows: (SectionHitRow & { space_id: string; rank: string })[] = await this.db.query(
      `WITH t AS (SELECT space_id, config::regconfig AS config, websearch_to_tsquery(config::regconfig, query) AS q
                  FROM unnest($1::text[], $2::text[], $3::text[]) AS u(space_id, config, query)),
       ranked AS (SELECT t.space_id, s.page_id, max(ts_rank(s.tsv, t.q)) AS rank
                  FROM t JOIN search_sections s ON s.space_id = t.space_id AND s.tsv @@ t.q GROUP BY t.space_id, s.page_id),
       top AS (SELECT * FROM (SELECT r.*, row_number() OVER (PARTITION BY r.space_id ORDER BY r.rank DESC, r.page_id COLLATE "C" DESC) AS n FROM ranked r) x
               WHERE x.n <= $4)
       SELECT top.space_id, top.rank::text AS rank, s.page_id, s.section, s.page_title, s.page_path, s.page_description, s.ancestors, s.title, s.anchor,
              ts_headline(t.config, translate(s.body, '${MARK_START}${MARK_STOP}', ''), t.q, '${HEADLINE}') AS excerpt
       FROM top JOIN t ON t.space_id = top.space_id
       JOIN search_sections s ON s.space_id = top.space_id AND s.page_id = top.page_id AND s.tsv @@ t.q
       ORDER BY top.space_id, top.rank DESC, top.page_id COLLATE "C" DESC, ts_rank(s.tsv, t.q) DESC, s.section`,
      [targets.map((x) => x.spaceId), targets.map((x) => x.config), targets.map((x) => x.query), perSpace],
    );
    for (const r of rows) {
      const hits = result.get(r.space_id) ?? [];
      result.set(r.space_id, hits);
      addSection(hits, r);
    }
    return result;
  }
}
