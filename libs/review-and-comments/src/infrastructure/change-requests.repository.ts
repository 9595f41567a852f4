import { Db, keysetPage, narrowingSql } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import {
  ChangeRequest,
  ChangeRequestRepository,
  OrganizationChangeRequestFilter,
  SpaceChangeRequestFilter,
} from '../domain/change-request';

interface Row {
  id: string;
  organization_id: string;
  space_id: string;
  number: number;
  status: string;
  subject: string;
  description: object | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  merged_by: string | null;
  merged_at: Date | null;
  revision: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  contributors: string[];
  comments_count: number;
  conversations_issues_cluster: string | null;
}

function toDomain(r: Row): ChangeRequest {
  return {
    id: r.id,
    organizationId: r.organization_id,
    spaceId: r.space_id,
    number: r.number,
    status: r.status as ChangeRequest['status'],
    subject: r.subject,
    description: r.description,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    mergedBy: r.merged_by,
    mergedAt: r.merged_at,
    revision: r.revision,
    revisionInitial: r.revision_initial,
    revisionMergedAncestor: r.revision_merged_ancestor,
    revisionMerged: r.revision_merged,
    contributors: r.contributors,
    comments: r.comments_count,
    conversationsIssuesCluster: r.conversations_issues_cluster,
  };
}

@Injectable()
export class SqlChangeRequestRepository extends ChangeRequestRepository {
  constructor(private readonly db: Db) {
    super();
  }

  /** Newest first, keyed by number (unique within a space); with `orderBy`, by that time (most recent first) then id. */
  async list(spaceId: string, filter: SpaceChangeRequestFilter, page: PageRequest): Promise<Page<ChangeRequest>> {
    const params: unknown[] = [spaceId, filter.status];
    let where = 'space_id = $1 AND status = $2';
    if (filter.creator) {
      params.push(filter.creator);
      where += ` AND created_by = $${params.length}`;
    }
    if (filter.contributor) {
      params.push(filter.contributor);
      where += ` AND $${params.length} = ANY(contributors)`;
    }
    if (filter.requestedReviewer)
      where += ` AND EXISTS (SELECT 1 FROM change_request_review_requests r WHERE r.change_request_id = change_requests.id AND r.user_id = $${params.push(filter.requestedReviewer)})`;
    if (filter.conversationsIssuesCluster !== undefined)
      where += ` AND conversations_issues_cluster = $${params.push(filter.conversationsIssuesCluster)}`;
    const query = `SELECT * FROM change_requests WHERE ${where}`;
    if (filter.orderBy) return mapPage(await keysetPage<Row>(this.db, query, params, byTime(filter.orderBy), page), toDomain);
    const keyset = { columns: ['q.number'], shape: ['int' as const], keyOf: (r: Row) => [r.number], direction: 'desc' as const };
    return mapPage(await keysetPage<Row>(this.db, query, params, keyset, page), toDomain);
  }

  /**
   * The highest stamp of the organization's rows and of its marks, plus the transactions in progress:
   * a stamp is taken when a row is written but seen when its transaction commits, so a writer that
   * was in progress at one read and committed before the next changes the key through that list
   * (a writer that started after the read takes a higher stamp). Under reads alone the list is stable.
   */
  async listVersion(organizationId: string): Promise<string> {
    const [r] = await this.db.namedQuery<{ v: string | null; e: string | null; busy: string | null }>(
      'change_request_list_version',
      `SELECT (SELECT max(list_version) FROM change_requests WHERE organization_id = $1) AS v,
              (SELECT max(stamp) FROM change_request_list_marks WHERE organization_id = $1) AS e,
              (SELECT string_agg(x::text, ',') FROM pg_snapshot_xip(pg_current_snapshot()) AS x) AS busy`,
      [organizationId],
    );
    return `${r.v ?? 0}.${r.e ?? 0}.${r.busy ?? ''}`;
  }

  async listInOrganization(
    organizationId: string,
    filter: OrganizationChangeRequestFilter,
    page: PageRequest,
  ): Promise<Page<ChangeRequest>> {
    const params: unknown[] = [organizationId, filter.statuses];
    let where = 'organization_id = $1 AND space_live AND status = ANY($2::text[])';
    if (filter.space !== undefined) where += ` AND space_id = $${params.push(filter.space)}`;
    where += narrowingSql('space_id', filter.narrowing, params);
    if (filter.creator) where += ` AND created_by = $${params.push(filter.creator)}`;
    if (filter.contributor) where += ` AND $${params.push(filter.contributor)} = ANY(contributors)`;
    if (filter.requestedReviewer)
      where += ` AND EXISTS (SELECT 1 FROM change_request_review_requests r WHERE r.change_request_id = change_requests.id AND r.user_id = $${params.push(filter.requestedReviewer)})`;
    if (filter.conversationsIssuesCluster !== undefined)
      where += ` AND conversations_issues_cluster = $${params.push(filter.conversationsIssuesCluster)}`;
    return mapPage(
      await keysetPage<Row>(this.db, `SELECT * FROM change_requests WHERE ${where}`, params, byTime(filter.orderBy), page),
      toDomain,
    );
  }

  async find(spaceId: string, ref: string): Promise<ChangeRequest | null> {
    const byNumber = /^\d{1,9}$/.test(ref);
    const rows: Row[] = await this.db.query(
      `SELECT * FROM change_requests WHERE space_id = $1 AND ${byNumber ? 'number = $2::int' : 'id = $2'}`,
      [spaceId, ref],
    );
    return rows.length ? toDomain(rows[0]) : null;
  }

  async insert(cr: Omit<ChangeRequest, 'number' | 'comments'>): Promise<ChangeRequest> {
    // Creations in one space take turns on a transaction-scoped lock (inside the request's transaction, so numbers
    // are taken in commit order); the unique (space_id, number) constraint still arbitrates, with ON CONFLICT rather
    // than a caught error, which would abort the surrounding transaction.
    if (this.db.inTransaction) await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('change-request-number:' || $1))`, [cr.spaceId]);
    for (let attempt = 0; ; attempt++) {
      const rows: Row[] = await this.db.query(
        `INSERT INTO change_requests (id, organization_id, space_id, number, status, subject, description, created_by, created_at, updated_at,
             revision, revision_initial, contributors)
           SELECT $1, $2, $3, COALESCE(MAX(number), 0) + 1, $4, $5, $6, $7, $8, $8, $9, $10, $11 FROM change_requests WHERE space_id = $3
           ON CONFLICT (space_id, number) DO NOTHING RETURNING *`,
        [
          cr.id,
          cr.organizationId,
          cr.spaceId,
          cr.status,
          cr.subject,
          cr.description,
          cr.createdBy,
          cr.createdAt,
          cr.revision,
          cr.revisionInitial,
          cr.contributors,
        ],
      );
      if (rows.length) return toDomain(rows[0]);
      if (attempt >= 50) throw new Error('could not number a new change request after 50 attempts');
    }
  }

  async updateFields(before: ChangeRequest, after: ChangeRequest): Promise<boolean> {
    // Only the fields that changed are written; the status guard keeps a PATCH from reopening a change
    // request merged meanwhile.
    const sets: string[] = ['updated_at = $3'];
    const params: unknown[] = [before.id, before.status, after.updatedAt];
    if (after.subject !== before.subject) sets.push(`subject = $${params.push(after.subject)}`);
    if (JSON.stringify(after.description) !== JSON.stringify(before.description))
      sets.push(`description = $${params.push(after.description)}`);
    if (after.status !== before.status) sets.push(`status = $${params.push(after.status)}`);
    if (after.conversationsIssuesCluster !== before.conversationsIssuesCluster)
      sets.push(`conversations_issues_cluster = $${params.push(after.conversationsIssuesCluster)}`);
    const affected = await this.db.execute(`UPDATE change_requests SET ${sets.join(', ')} WHERE id = $1 AND status = $2`, params);
    return affected === 1;
  }

  async compareAndSetRevision(
    id: string,
    expected: string,
    next: string,
    patch: { revisionMergedAncestor?: string; contributor?: string; at: Date },
  ): Promise<boolean> {
    const affected = await this.db.execute(
      `UPDATE change_requests SET revision = $3, updated_at = $4,
         revision_merged_ancestor = COALESCE($5, revision_merged_ancestor),
         contributors = CASE WHEN $6::text IS NULL OR $6 = ANY(contributors) THEN contributors ELSE array_append(contributors, $6) END
       WHERE id = $1 AND revision = $2 AND status IN ('open', 'draft')`,
      [id, expected, next, patch.at, patch.revisionMergedAncestor ?? null, patch.contributor ?? null],
    );
    return affected === 1;
  }

  async lock(id: string): Promise<void> {
    await this.db.query('SELECT 1 FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
  }

  async markMerged(id: string, revisionMerged: string, by: string, at: Date): Promise<boolean> {
    const affected = await this.db.execute(
      `UPDATE change_requests SET status = 'merged', revision_merged = $2, merged_by = $3, merged_at = $4, updated_at = $4
       WHERE id = $1 AND status IN ('open', 'draft')`,
      [id, revisionMerged, by, at],
    );
    return affected === 1;
  }

  async counts(spaceId: string): Promise<{ total: number; open: number; draft: number }> {
    const [r] = await this.db.query<{ total: number; open: number; draft: number }[]>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'open')::int AS open, count(*) FILTER (WHERE status = 'draft')::int AS draft
       FROM change_requests WHERE space_id = $1`,
      [spaceId],
    );
    return r;
  }
}

/** Most recently updated (or created) first, then by id: the keyset of a list ordered by time. */
function byTime(orderBy: 'updatedAt' | 'createdAt') {
  return {
    columns: [orderBy === 'createdAt' ? 'q.created_at' : 'q.updated_at', 'q.id'],
    shape: ['timestamp' as const, 'text' as const],
    keyOf: (r: Row) => [(orderBy === 'createdAt' ? r.created_at : r.updated_at).toISOString(), r.id],
    direction: 'desc' as const,
  };
}
