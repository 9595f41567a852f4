import { Injectable } from '@nestjs/common';
import { Db, isoSortKey, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { RedirectDestination, RedirectListFilter, SiteRedirect, SiteRedirects } from '../domain/redirects';
import { SiteStateChanges } from '../domain/site-repository';

interface RedirectRow {
  id: string;
  seq: string;
  organization_id: string;
  site_id: string;
  source: string;
  draft: boolean;
  capture_wildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  created_at: Date;
  updated_at: Date | null;
  sort_key?: string;
}

const toRedirect = (r: RedirectRow): SiteRedirect => ({
  id: r.id,
  organizationId: r.organization_id,
  siteId: r.site_id,
  source: r.source,
  draft: r.draft,
  captureWildcard: r.capture_wildcard,
  permanent: r.permanent,
  destination: r.destination,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** `LIKE` with the visitor's text taken literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Site redirects in PostgreSQL; every write moves the site's version in the same transaction. */
@Injectable()
export class SqlSiteRedirects extends SiteRedirects {
  constructor(
    private readonly db: Db,
    private readonly changes: SiteStateChanges,
  ) {
    super();
  }

  async list(siteId: string, filter: RedirectListFilter, page: PageRequest): Promise<Page<SiteRedirect>> {
    const params: unknown[] = [siteId, filter.draft];
    let where = 'site_id = $1 AND draft = $2';
    if (filter.search) where += ` AND source ILIKE $${params.push(`%${likeEscape(filter.search)}%`)}`;
    // createdAt and updatedAt: the most recent first (updatedAt falls back to the creation); source: A to Z.
    const sort =
      filter.orderBy === 'source'
        ? 'source COLLATE "C"'
        : filter.orderBy === 'updatedAt'
          ? isoSortKey('coalesce(updated_at, created_at)')
          : isoSortKey('created_at');
    const result = await keysetPage<RedirectRow>(
      this.db,
      `SELECT *, ${sort} AS sort_key FROM site_redirects WHERE ${where}`,
      params,
      {
        columns: ['q.sort_key', 'q.seq'],
        shape: ['text', 'int'],
        keyOf: (r) => [r.sort_key!, Number(r.seq)],
        direction: filter.orderBy === 'source' ? 'asc' : 'desc',
      },
      page,
    );
    return mapPage(result, toRedirect);
  }

  async live(siteId: string): Promise<SiteRedirect[]> {
    const rows: RedirectRow[] = await this.db.query('SELECT * FROM site_redirects WHERE site_id = $1 AND NOT draft ORDER BY seq', [siteId]);
    return rows.map(toRedirect);
  }

  async count(siteId: string): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM site_redirects WHERE site_id = $1', [siteId]);
    return n;
  }

  async find(siteId: string, redirectId: string): Promise<SiteRedirect | null> {
    const rows: RedirectRow[] = await this.db.query('SELECT * FROM site_redirects WHERE site_id = $1 AND id = $2', [siteId, redirectId]);
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  async findBySource(siteId: string, source: string, draft: boolean): Promise<SiteRedirect | null> {
    const rows: RedirectRow[] = await this.db.query('SELECT * FROM site_redirects WHERE site_id = $1 AND draft = $2 AND source = $3', [
      siteId,
      draft,
      source,
    ]);
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  async insert(r: SiteRedirect): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO site_redirects (id, organization_id, site_id, source, draft, capture_wildcard, permanent, destination, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (site_id, draft, source) DO NOTHING RETURNING id`,
      [
        r.id,
        r.organizationId,
        r.siteId,
        r.source,
        r.draft,
        r.captureWildcard,
        r.permanent,
        JSON.stringify(r.destination),
        r.createdAt,
        r.updatedAt,
      ],
    );
    if (rows.length === 1) await this.touch(r.siteId);
    return rows.length === 1;
  }

  async update(r: SiteRedirect): Promise<boolean> {
    const taken: unknown[] = await this.db.query(
      'SELECT 1 FROM site_redirects WHERE site_id = $1 AND draft = $2 AND source = $3 AND id <> $4',
      [r.siteId, r.draft, r.source, r.id],
    );
    if (taken.length) return false;
    await this.db.query(
      `UPDATE site_redirects SET source = $3, draft = $4, capture_wildcard = $5, permanent = $6, destination = $7, updated_at = $8
       WHERE site_id = $1 AND id = $2`,
      [r.siteId, r.id, r.source, r.draft, r.captureWildcard, r.permanent, JSON.stringify(r.destination), r.updatedAt],
    );
    await this.touch(r.siteId);
    return true;
  }

  async delete(siteId: string, redirectId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM site_redirects WHERE site_id = $1 AND id = $2 RETURNING id) SELECT id FROM d',
      [siteId, redirectId],
    );
    if (rows.length === 1) await this.touch(siteId);
    return rows.length === 1;
  }

  private async touch(siteId: string): Promise<void> {
    await this.db.query('UPDATE sites SET version = version + 1 WHERE id = $1', [siteId]);
    // The redirects move the site's version: this process forgets its state once that commits (SqlSiteRepository).
    this.db.afterCommit(() => this.changes.changed(siteId));
  }
}
