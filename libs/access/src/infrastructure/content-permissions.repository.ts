import { Injectable } from '@nestjs/common';
import { Db, keysetPage, narrowingSql } from '@app/persistence';
import { mapPage, Narrowing, Page, PageRequest, Role, strongestRole } from '@app/shared-kernel';
import { ContentPermission, ContentPermissionRepository, Principal } from '../domain/grants';

interface Row {
  organization_id: string;
  space_id: string | null;
  collection_id: string | null;
  site_id: string | null;
  user_id: string | null;
  team_id: string | null;
  role: Role;
  granted_at: Date;
}

const toPermission = (r: Row): ContentPermission => ({
  organizationId: r.organization_id,
  content: r.space_id
    ? { kind: 'space', id: r.space_id }
    : r.collection_id
      ? { kind: 'collection', id: r.collection_id }
      : { kind: 'site', id: r.site_id! },
  principal: r.user_id ? { kind: 'user', id: r.user_id } : { kind: 'team', id: r.team_id! },
  role: r.role,
  grantedAt: r.granted_at,
});

const column = (p: Principal) => (p.kind === 'user' ? 'user_id' : 'team_id');

@Injectable()
export class SqlContentPermissionRepository extends ContentPermissionRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async grant(permissions: ContentPermission[]): Promise<void> {
    if (permissions.length === 0) return;
    await this.db.query(
      `INSERT INTO content_permissions (organization_id, space_id, collection_id, site_id, user_id, team_id, role, granted_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
       ON CONFLICT (content_id, principal_id) DO UPDATE SET role = EXCLUDED.role`,
      [
        permissions.map((p) => p.organizationId),
        permissions.map((p) => (p.content.kind === 'space' ? p.content.id : null)),
        permissions.map((p) => (p.content.kind === 'collection' ? p.content.id : null)),
        permissions.map((p) => (p.content.kind === 'site' ? p.content.id : null)),
        permissions.map((p) => (p.principal.kind === 'user' ? p.principal.id : null)),
        permissions.map((p) => (p.principal.kind === 'team' ? p.principal.id : null)),
        permissions.map((p) => p.role),
        permissions.map((p) => p.grantedAt),
      ],
    );
  }

  async update(contentId: string, principal: Principal, role: Role): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH u AS (UPDATE content_permissions SET role = $3 WHERE content_id = $1 AND ${column(principal)} = $2 RETURNING 1) SELECT * FROM u`,
      [contentId, principal.id, role],
    );
    return rows.length > 0;
  }

  async revoke(contentId: string, principal: Principal): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH d AS (DELETE FROM content_permissions WHERE content_id = $1 AND ${column(principal)} = $2 RETURNING 1) SELECT * FROM d`,
      [contentId, principal.id],
    );
    return rows.length > 0;
  }

  async list(contentId: string, kind: Principal['kind'], page: PageRequest): Promise<Page<ContentPermission>> {
    const result = await keysetPage<Row & { principal_id: string }>(
      this.db,
      `SELECT * FROM content_permissions WHERE content_id = $1 AND ${kind === 'user' ? 'user_id' : 'team_id'} IS NOT NULL`,
      [contentId],
      { columns: ['q.principal_id'], shape: ['text'], keyOf: (r) => [r.principal_id] },
      page,
    );
    return mapPage(result, toPermission);
  }

  async grantsOf(organizationId: string, userId: string, teamIds: string[]): Promise<Map<string, Role>> {
    const rows: { content_id: string; role: Role }[] = await this.db.query(
      `SELECT content_id, role FROM content_permissions
       WHERE organization_id = $1 AND (user_id = $2 OR team_id = ANY($3::text[]))`,
      [organizationId, userId, teamIds],
    );
    const out = new Map<string, Role>();
    for (const r of rows) out.set(r.content_id, strongestRole(out.get(r.content_id), r.role)!);
    return out;
  }

  async onContent(contentIds: string[]): Promise<ContentPermission[]> {
    if (contentIds.length === 0) return [];
    const rows: Row[] = await this.db.query('SELECT * FROM content_permissions WHERE content_id = ANY($1::text[])', [contentIds]);
    return rows.map(toPermission);
  }

  async revokeAll(contentIds: string[]): Promise<void> {
    if (contentIds.length) await this.db.query('DELETE FROM content_permissions WHERE content_id = ANY($1::text[])', [contentIds]);
  }

  /** Reads the content context's collections and spaces (never writes them) to follow grants down the tree. */
  async teamSpaceCounts(organizationId: string, teamIds: string[], narrowing: Narrowing): Promise<Map<string, number>> {
    return this.spaceCounts('team_id', organizationId, teamIds, narrowing);
  }

  async memberContentCounts(
    organizationId: string,
    userIds: string[],
    narrowing: Narrowing,
  ): Promise<Map<string, { spaces: number; sites: number }>> {
    if (userIds.length === 0) return new Map();
    const spaces = await this.spaceCounts('user_id', organizationId, userIds, narrowing);
    const sites: { user_id: string; sites: number }[] = await this.db.query(
      `SELECT user_id, count(*)::int AS sites FROM content_permissions
       WHERE organization_id = $1 AND user_id = ANY($2::text[]) AND site_id IS NOT NULL GROUP BY user_id`,
      [organizationId, userIds],
    );
    const siteCounts = new Map(sites.map((r) => [r.user_id, r.sites]));
    return new Map(userIds.map((id) => [id, { spaces: spaces.get(id) ?? 0, sites: siteCounts.get(id) ?? 0 }]));
  }

  /** How many live spaces each principal (teams or users, by `column`) reaches through its grants, narrowed. */
  private async spaceCounts(
    column: 'team_id' | 'user_id',
    organizationId: string,
    ids: string[],
    narrowing: Narrowing,
  ): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const params: unknown[] = [organizationId, ids];
    const narrowed = narrowingSql('s.id', narrowing, params);
    const rows: { principal: string; spaces: number }[] = await this.db.query(
      `WITH RECURSIVE g AS (
         SELECT ${column} AS principal, space_id, collection_id FROM content_permissions
         WHERE organization_id = $1 AND ${column} = ANY($2::text[])
       ), below (principal, collection_id) AS (
         SELECT principal, collection_id FROM g WHERE collection_id IS NOT NULL
         UNION
         SELECT b.principal, c.id FROM below b JOIN collections c ON c.organization_id = $1 AND c.parent_id = b.collection_id
       ), reached (principal, space_id) AS (
         SELECT principal, space_id FROM g WHERE space_id IS NOT NULL
         UNION
         SELECT b.principal, s.id FROM below b JOIN spaces s ON s.organization_id = $1 AND s.parent_id = b.collection_id
       )
       SELECT r.principal, count(*)::int AS spaces FROM reached r JOIN spaces s ON s.id = r.space_id AND s.deleted_at IS NULL${narrowed}
       GROUP BY r.principal`,
      params,
    );
    return new Map(rows.map((r) => [r.principal, r.spaces]));
  }
}
