import { Injectable } from '@nestjs/common';
import { Db, SqlTable, keysetPage, narrowingSql } from '@app/persistence';
import { ConflictError, mapPage, Page, PageRequest } from '@app/shared-kernel';
import type { AdaptiveJsonSchema } from '../domain/adaptive';
import type { CustomizationOverride, CustomizationSettings } from '../domain/customization';
import { AgentsContext, Site, siteSpaces, SiteType, SiteVisibility, spaceIdsOf, Structure } from '../domain/site';
import {
  PublishingAuth,
  ShareLink,
  SiteFilter,
  SiteRepository,
  SiteSettings,
  SiteState,
  SiteStateChanges,
} from '../domain/site-repository';

interface SiteRow {
  id: string;
  seq: string;
  organization_id: string;
  type: string;
  title: string;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
  visibility: string;
  published: boolean;
  adaptive_content: boolean;
  agents_context: string;
  structure: Structure;
  version: string;
  created_at: Date;
}

interface ShareLinkRow {
  id: string;
  seq: string;
  organization_id: string;
  site_id: string;
  name: string;
  key: string;
  active: boolean;
  created_at: Date;
}

const SITE_COLUMNS =
  'id, seq, organization_id, type, title, hostname, basename, proxy, visibility, published, adaptive_content, agents_context, structure, version, created_at';

const toSite = (r: SiteRow): Site => ({
  id: r.id,
  organizationId: r.organization_id,
  type: r.type as SiteType,
  title: r.title,
  hostname: r.hostname,
  basename: r.basename,
  proxy: r.proxy,
  visibility: r.visibility as SiteVisibility,
  published: r.published,
  adaptiveContent: r.adaptive_content,
  agentsContext: r.agents_context as AgentsContext,
  structure: r.structure,
  version: Number(r.version),
  createdAt: r.created_at,
});

const toShareLink = (r: ShareLinkRow): ShareLink => ({
  id: r.id,
  organizationId: r.organization_id,
  siteId: r.site_id,
  name: r.name,
  key: r.key,
  active: r.active,
  createdAt: r.created_at,
});

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(e: unknown, constraint: string): boolean {
  const err = e as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = err.code ?? err.driverError?.code;
  return code === UNIQUE_VIOLATION && (err.constraint ?? err.driverError?.constraint) === constraint;
}

/** The columns of a site, one place for the insert and for saves (which write only what changed). */
const SITES = new SqlTable<Site>('sites', {
  id: (s) => s.id,
  organization_id: (s) => s.organizationId,
  type: (s) => s.type,
  title: (s) => s.title,
  hostname: (s) => s.hostname,
  basename: (s) => s.basename,
  proxy: (s) => s.proxy,
  visibility: (s) => s.visibility,
  published: (s) => s.published,
  adaptive_content: (s) => s.adaptiveContent,
  agents_context: (s) => s.agentsContext,
  structure: (s) => JSON.stringify(s.structure),
  space_ids: (s) => spaceIdsOf(s.structure),
  site_spaces: (s) => siteSpaces(s.structure).length,
  version: (s) => s.version,
  created_at: (s) => s.createdAt,
});

@Injectable()
export class SqlSiteRepository extends SiteRepository {
  constructor(
    private readonly db: Db,
    private readonly changes: SiteStateChanges,
  ) {
    super();
  }

  /**
   * This process forgets the states of these sites once the write commits (the trigger on `sites` tells the
   * other processes; this process hears it too, a moment later: its next request must not wait for that).
   */
  private changed(...siteIds: string[]): void {
    this.db.afterCommit(() => siteIds.forEach((id) => this.changes.changed(id)));
  }

  async insert(site: Site): Promise<void> {
    const { sql, params } = SITES.insert(site);
    await this.write(() => this.db.query(sql, params));
    this.changed(site.id);
  }

  async find(organizationId: string, siteId: string): Promise<Site | null> {
    const rows: SiteRow[] = await this.db.query(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1 AND organization_id = $2`, [
      siteId,
      organizationId,
    ]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async findById(siteId: string): Promise<Site | null> {
    const rows: SiteRow[] = await this.db.query(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1`, [siteId]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async findByHostname(hostname: string): Promise<Site | null> {
    const rows: SiteRow[] = await this.db.namedQuery('site-by-hostname', `SELECT ${SITE_COLUMNS} FROM sites WHERE hostname = $1`, [
      hostname,
    ]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async findForUpdate(organizationId: string, siteId: string): Promise<Site | null> {
    const rows: SiteRow[] = await this.db.query(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1 AND organization_id = $2 FOR UPDATE`, [
      siteId,
      organizationId,
    ]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async save(before: Site, after: Site): Promise<void> {
    // Only what changed is written (the structure is one large JSON column: written when it changed); the version always moves.
    await this.write(() => SITES.update(this.db, before, after, { id: before.id }, { also: ['version = version + 1'] }));
    this.changed(before.id);
  }

  private async write(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (e) {
      if (isUniqueViolation(e, 'sites_hostname')) throw new ConflictError('Another site already uses this hostname');
      throw e;
    }
  }

  async delete(organizationId: string, siteId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM sites WHERE id = $1 AND organization_id = $2 RETURNING id) SELECT id FROM d',
      [siteId, organizationId],
    );
    this.changed(siteId);
    return rows.length === 1;
  }

  async list(organizationId: string, filter: SiteFilter, page: PageRequest): Promise<Page<Site>> {
    const params: unknown[] = [organizationId];
    const where = ['organization_id = $1'];
    if (filter.spaceId !== undefined) where.push(`space_ids @> ARRAY[$${params.push(filter.spaceId)}]::text[]`);
    if (filter.title !== undefined) where.push(`strpos(lower(title), lower($${params.push(filter.title)})) > 0`);
    if (filter.published !== undefined) where.push(`published = $${params.push(filter.published)}`);
    if (filter.types?.length) where.push(`type = ANY($${params.push(filter.types)}::text[])`);
    const narrowed = narrowingSql('id', filter.narrowing ?? null, params);
    const result = await keysetPage<SiteRow>(
      this.db,
      `SELECT ${SITE_COLUMNS} FROM sites WHERE ${where.join(' AND ')}${narrowed}`,
      params,
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)] },
      page,
    );
    return mapPage(result, toSite);
  }

  async showingSpaces(spaceIds: string[]): Promise<Site[]> {
    const rows: SiteRow[] = await this.db.query(`SELECT ${SITE_COLUMNS} FROM sites WHERE space_ids && $1::text[] ORDER BY id FOR UPDATE`, [
      spaceIds,
    ]);
    return rows.map(toSite);
  }

  async touchShowing(spaceId: string): Promise<void> {
    const rows: { id: string }[] = await this.db.query(
      // A CTE: an UPDATE's RETURNING comes back from the driver as [rows, count], a SELECT's as the rows.
      'WITH u AS (UPDATE sites SET version = version + 1 WHERE space_ids @> ARRAY[$1]::text[] RETURNING id) SELECT id FROM u',
      [spaceId],
    );
    this.changed(...rows.map((r) => r.id));
  }

  async settings(siteId: string): Promise<SiteSettings> {
    const rows: {
      adaptive_schema: AdaptiveJsonSchema | null;
      adaptive_schema_updated_at: Date | null;
      customization: CustomizationSettings | null;
      customization_updated_at: Date | null;
      site_space_customizations: Record<string, CustomizationOverride>;
    }[] = await this.db.query(
      'SELECT adaptive_schema, adaptive_schema_updated_at, customization, customization_updated_at, site_space_customizations FROM sites WHERE id = $1',
      [siteId],
    );
    const r = rows[0];
    return {
      adaptiveSchema: r?.adaptive_schema ? { jsonSchema: r.adaptive_schema, updatedAt: r.adaptive_schema_updated_at! } : null,
      customization: r?.customization ? { settings: r.customization, updatedAt: r.customization_updated_at! } : null,
      siteSpaceCustomizations: r?.site_space_customizations ?? {},
    };
  }

  async setAdaptiveSchema(siteId: string, jsonSchema: AdaptiveJsonSchema, at: Date): Promise<void> {
    await this.db.query('UPDATE sites SET adaptive_schema = $2, adaptive_schema_updated_at = $3, version = version + 1 WHERE id = $1', [
      siteId,
      JSON.stringify(jsonSchema),
      at,
    ]);
    this.changed(siteId);
  }

  async setCustomization(siteId: string, settings: CustomizationSettings, at: Date): Promise<void> {
    await this.db.query('UPDATE sites SET customization = $2, customization_updated_at = $3, version = version + 1 WHERE id = $1', [
      siteId,
      JSON.stringify(settings),
      at,
    ]);
    this.changed(siteId);
  }

  async setSiteSpaceCustomization(siteId: string, siteSpaceId: string, override: CustomizationOverride | null): Promise<void> {
    if (override === null)
      await this.db.query(
        'UPDATE sites SET site_space_customizations = site_space_customizations - $2, version = version + 1 WHERE id = $1',
        [siteId, siteSpaceId],
      );
    else
      await this.db.query(
        'UPDATE sites SET site_space_customizations = jsonb_set(site_space_customizations, ARRAY[$2], $3::jsonb), version = version + 1 WHERE id = $1',
        [siteId, siteSpaceId, JSON.stringify(override)],
      );
    this.changed(siteId);
  }

  async state(siteId: string): Promise<SiteState | null> {
    const rows: {
      organization_id: string;
      version: string;
      published: boolean;
      visibility: SiteVisibility;
      visitor_auth_key: string | null;
    }[] = await this.db.namedQuery(
      'site-state',
      'SELECT organization_id, version, published, visibility, visitor_auth_key FROM sites WHERE id = $1',
      [siteId],
    );
    const r = rows[0];
    return r
      ? {
          organizationId: r.organization_id,
          version: Number(r.version),
          published: r.published,
          visibility: r.visibility,
          visitorAuthKey: r.visitor_auth_key,
        }
      : null;
  }

  async shareKeyActive(siteId: string, key: string): Promise<boolean> {
    const rows: unknown[] = await this.db.namedQuery(
      'site-share-key-active',
      'SELECT 1 FROM site_share_links WHERE key = $1 AND site_id = $2 AND active',
      [key, siteId],
    );
    return rows.length > 0;
  }

  async publishingAuth(siteId: string): Promise<PublishingAuth | null> {
    const rows: { visitor_auth_key: string | null; visitor_auth_fallback_url: string | null; visitor_auth_logout_url: string | null }[] =
      await this.db.query('SELECT visitor_auth_key, visitor_auth_fallback_url, visitor_auth_logout_url FROM sites WHERE id = $1', [siteId]);
    const r = rows[0];
    return r?.visitor_auth_key
      ? { privateKey: r.visitor_auth_key, fallbackURL: r.visitor_auth_fallback_url, logoutURL: r.visitor_auth_logout_url }
      : null;
  }

  async setPublishingAuth(siteId: string, auth: PublishingAuth): Promise<void> {
    await this.db.query(
      `UPDATE sites SET visitor_auth_key = $2, visitor_auth_fallback_url = $3, visitor_auth_logout_url = $4, version = version + 1
       WHERE id = $1`,
      [siteId, auth.privateKey, auth.fallbackURL, auth.logoutURL],
    );
    this.changed(siteId);
  }

  async listShareLinks(siteId: string, page: PageRequest, search?: { text: string; byKey: boolean }): Promise<Page<ShareLink>> {
    const result = await keysetPage<ShareLinkRow>(
      this.db,
      search
        ? 'SELECT * FROM site_share_links WHERE site_id = $1 AND (strpos(lower(name), lower($2)) > 0 OR ($3 AND key = $2))'
        : 'SELECT * FROM site_share_links WHERE site_id = $1',
      search ? [siteId, search.text, search.byKey] : [siteId],
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)] },
      page,
    );
    return mapPage(result, toShareLink);
  }

  async findShareLink(siteId: string, shareLinkId: string): Promise<ShareLink | null> {
    const rows: ShareLinkRow[] = await this.db.query('SELECT * FROM site_share_links WHERE site_id = $1 AND id = $2', [
      siteId,
      shareLinkId,
    ]);
    return rows[0] ? toShareLink(rows[0]) : null;
  }

  async insertShareLink(l: ShareLink): Promise<void> {
    await this.db.query(
      'INSERT INTO site_share_links (id, organization_id, site_id, name, key, active, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [l.id, l.organizationId, l.siteId, l.name, l.key, l.active, l.createdAt],
    );
    await this.touch(l.siteId);
  }

  async updateShareLink(l: ShareLink): Promise<void> {
    await this.db.query('UPDATE site_share_links SET name = $3, active = $4 WHERE site_id = $1 AND id = $2', [
      l.siteId,
      l.id,
      l.name,
      l.active,
    ]);
    await this.touch(l.siteId);
  }

  async deleteShareLink(siteId: string, shareLinkId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM site_share_links WHERE site_id = $1 AND id = $2 RETURNING id) SELECT id FROM d',
      [siteId, shareLinkId],
    );
    if (rows.length === 1) await this.touch(siteId);
    return rows.length === 1;
  }

  private async touch(siteId: string): Promise<void> {
    await this.db.query('UPDATE sites SET version = version + 1 WHERE id = $1', [siteId]);
    this.changed(siteId);
  }
}
