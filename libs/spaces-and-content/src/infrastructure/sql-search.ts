import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PageRequest } from '@app/shared-kernel';
import { IndexState, PageHit, SearchIndex, SectionRow, SpaceHit } from '../domain/content/search-index';

const HEADLINE = 'MaxFragments=1, MaxWords=35, MinWords=12, StartSel=<mark>, StopSel=</mark>, FragmentDelimiter=" … "';

/** The search index in PostgreSQL: tsvector + GIN, ranking with ts_rank, excerpts with ts_headline. */
@Injectable()
export class SqlSearchIndex extends SearchIndex {
  constructor(@InjectDataSource() private readonly ds: DataSource) {
    super();
  }

  async state(spaceId: string): Promise<IndexState | null> {
    const rows: IndexState[] = await this.ds.query('SELECT revision, pages FROM search_state WHERE space_id = $1', [spaceId]);
    return rows[0] ?? null;
  }

  /**
   * Replaces the rows of the given pages and records the new state, only if the index still reflects
   * `expected` (another indexer that got there first wins; the caller re-reads and retries).
   */
  async apply(
    space: { id: string; organizationId: string },
    config: string,
    expected: string | null,
    next: IndexState,
    replacePages: string[],
    rows: SectionRow[],
  ): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      await em.query(`INSERT INTO search_state (space_id, revision, pages) VALUES ($1, '', '{}') ON CONFLICT DO NOTHING`, [space.id]);
      const [current]: { revision: string }[] = await em.query('SELECT revision FROM search_state WHERE space_id = $1 FOR UPDATE', [space.id]);
      if ((current.revision || null) !== expected) return false;
      if (replacePages.length) await em.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2::text[])', [space.id, replacePages]);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        await em.query(
          `INSERT INTO search_sections (organization_id, space_id, page_id, section, page_title, page_path, ancestors, page_description, title, anchor, body, config, tsv)
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
      await em.query('UPDATE search_state SET revision = $2, pages = $3 WHERE space_id = $1', [space.id, next.revision, JSON.stringify(next.pages)]);
      return true;
    });
  }

  async moveSpace(spaceId: string, organizationId: string): Promise<void> {
    await this.ds.query('UPDATE search_sections SET organization_id = $2 WHERE space_id = $1', [spaceId, organizationId]);
  }

  async searchSpace(spaceId: string, config: string, query: string, page: PageRequest): Promise<{ count: number; hits: PageHit[] }> {
    const params: unknown[] = [spaceId, config, query];
    let after = '';
    if (page.after) {
      params.push(String(page.after[0]), String(page.after[1]));
      after = 'WHERE (h.rank, h.page_id) < ($4::numeric, $5)';
    }
    params.push(page.limit + 1);
    const rows: { total: number; page_id: string; rank: string }[] = await this.ds.query(
      `WITH hits AS (
         SELECT s.page_id, round(max(ts_rank(s.tsv, q.q))::numeric, 8) AS rank
         FROM search_sections s, (SELECT websearch_to_tsquery($2::regconfig, $3) AS q) q
         WHERE s.tsv @@ websearch_to_tsquery($2::regconfig, $3) AND s.space_id = $1 GROUP BY s.page_id)
       SELECT (SELECT count(*) FROM hits)::int AS total, h.page_id, h.rank::text AS rank FROM hits h ${after}
       ORDER BY h.rank DESC, h.page_id DESC LIMIT $${params.length}`,
      params,
    );
    const count = rows[0]?.total ?? (page.after ? await this.countSpace(spaceId, config, query) : 0);
    return { count, hits: await this.sectionsOf(spaceId, config, query, rows.map((r) => ({ pageId: r.page_id, rank: r.rank }))) };
  }

  private async countSpace(spaceId: string, config: string, query: string): Promise<number> {
    const [r] = await this.ds.query(
      `SELECT count(DISTINCT page_id)::int AS n FROM search_sections WHERE space_id = $1 AND tsv @@ websearch_to_tsquery($2::regconfig, $3)`,
      [spaceId, config, query],
    );
    return r.n;
  }

  private async sectionsOf(spaceId: string, config: string, query: string, pages: { pageId: string; rank: string }[]): Promise<PageHit[]> {
    if (!pages.length) return [];
    const rows: {
      page_id: string;
      section: number;
      page_title: string;
      page_path: string;
      page_description: string;
      ancestors: { id: string; title: string }[];
      title: string;
      anchor: string | null;
      excerpt: string;
    }[] = await this.ds.query(
      `SELECT s.page_id, s.section, s.page_title, s.page_path, s.page_description, s.ancestors, s.title, s.anchor,
              ts_headline($2::regconfig, s.body, q.q, '${HEADLINE}') AS excerpt
       FROM search_sections s, (SELECT websearch_to_tsquery($2::regconfig, $3) AS q) q
       WHERE s.space_id = $1 AND s.page_id = ANY($4::text[]) AND s.tsv @@ websearch_to_tsquery($2::regconfig, $3)
       ORDER BY ts_rank(s.tsv, q.q) DESC, s.section`,
      [spaceId, config, query, pages.map((p) => p.pageId)],
    );
    return pages.map((p) => {
      const mine = rows.filter((r) => r.page_id === p.pageId);
      const first = mine[0];
      return {
        ...p,
        pageTitle: first?.page_title ?? '',
        pagePath: first?.page_path ?? '',
        pageDescription: first?.page_description ?? '',
        ancestors: first?.ancestors ?? [],
        sections: mine.map((r) => ({ section: r.section, title: r.title, anchor: r.anchor, excerpt: r.excerpt })),
      };
    });
  }

  /** Spaces of an organization with matching pages, best first; each with its best pages. */
  async searchOrganization(organizationId: string, queryFor: (config: string) => string, page: PageRequest, pagesPerSpace = 5): Promise<{ count: number; hits: SpaceHit[] }> {
    const configs: { config: string }[] = await this.ds.query('SELECT DISTINCT config::text AS config FROM search_sections WHERE organization_id = $1', [organizationId]);
    if (!configs.length) return { count: 0, hits: [] };
    const params: unknown[] = [organizationId];
    const parts = configs.map(({ config }) => {
      params.push(config, queryFor(config));
      const c = `$${params.length - 1}::regconfig`;
      const q = `websearch_to_tsquery(${c}, $${params.length})`;
      return `SELECT s.space_id, s.page_id, s.config, ts_rank(s.tsv, ${q}) AS r FROM search_sections s
              WHERE s.organization_id = $1 AND s.config = ${c} AND s.tsv @@ ${q}`;
    });
    let after = '';
    if (page.after) {
      params.push(String(page.after[0]), String(page.after[1]));
      after = `AND (h.rank, h.space_id) < ($${params.length - 1}::numeric, $${params.length})`;
    }
    params.push(page.limit + 1);
    const rows: { total: number; space_id: string; title: string; rank: string; config: string }[] = await this.ds.query(
      `WITH matches AS (${parts.join(' UNION ALL ')}),
       hits AS (SELECT m.space_id, round(max(m.r)::numeric, 8) AS rank, min(m.config::text) AS config FROM matches m
                JOIN spaces sp ON sp.id = m.space_id AND sp.deleted_at IS NULL GROUP BY m.space_id)
       SELECT (SELECT count(*) FROM hits)::int AS total, h.space_id, sp.title, h.rank::text AS rank, h.config
       FROM hits h JOIN spaces sp ON sp.id = h.space_id WHERE true ${after}
       ORDER BY h.rank DESC, h.space_id DESC LIMIT $${params.length}`,
      params,
    );
    const hits: SpaceHit[] = [];
    for (const r of rows) {
      const top = await this.searchSpace(r.space_id, r.config, queryFor(r.config), { limit: pagesPerSpace });
      hits.push({ spaceId: r.space_id, spaceTitle: r.title, rank: r.rank, pages: top.hits });
    }
    return { count: rows[0]?.total ?? 0, hits };
  }
}
