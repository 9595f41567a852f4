import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { Review, ReviewRepository, ReviewRequest } from '../domain/review';

interface ReviewRow {
  id: string;
  seq: string;
  organization_id: string;
  space_id: string;
  change_request_id: string;
  reviewer: string;
  requested_by: string | null;
  status: string;
  revision: string;
  comment_id: string | null;
  outdated: boolean;
  created_at: Date;
  updated_at: Date;
}

interface RequestRow {
  change_request_id: string;
  user_id: string;
  seq: string;
  requested_by: string;
  revision: string;
  created_at: Date;
}

const toReview = (r: ReviewRow): Review => ({
  id: r.id,
  organizationId: r.organization_id,
  spaceId: r.space_id,
  changeRequestId: r.change_request_id,
  reviewer: r.reviewer,
  requestedBy: r.requested_by,
  status: r.status as Review['status'],
  revision: r.revision,
  commentId: r.comment_id,
  outdated: r.outdated,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRequest = (r: RequestRow): ReviewRequest => ({
  changeRequestId: r.change_request_id,
  userId: r.user_id,
  requestedBy: r.requested_by,
  revision: r.revision,
  createdAt: r.created_at,
});

/** In submission (request) order. */
const bySeq = <R extends { seq: string }>() => ({ columns: ['q.seq'], shape: ['int' as const], keyOf: (r: R) => [Number(r.seq)] });

@Injectable()
export class SqlReviewRepository extends ReviewRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(r: Review): Promise<void> {
    await this.db.query(
      `INSERT INTO change_request_reviews (id, organization_id, space_id, change_request_id, reviewer, requested_by, status, revision, comment_id,
         outdated, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        r.id,
        r.organizationId,
        r.spaceId,
        r.changeRequestId,
        r.reviewer,
        r.requestedBy,
        r.status,
        r.revision,
        r.commentId,
        r.outdated,
        r.createdAt,
        r.updatedAt,
      ],
    );
  }

  async find(changeRequestId: string, id: string): Promise<Review | null> {
    const rows: ReviewRow[] = await this.db.query('SELECT * FROM change_request_reviews WHERE change_request_id = $1 AND id = $2', [
      changeRequestId,
      id,
    ]);
    return rows.length ? toReview(rows[0]) : null;
  }

  async list(changeRequestId: string, filter: { outdated?: boolean }, page: PageRequest): Promise<Page<Review>> {
    const params: unknown[] = [changeRequestId];
    let where = 'change_request_id = $1';
    if (filter.outdated !== undefined) where += ` AND outdated = $${params.push(filter.outdated)}`;
    return mapPage(
      await keysetPage<ReviewRow>(this.db, `SELECT * FROM change_request_reviews WHERE ${where}`, params, bySeq<ReviewRow>(), page),
      toReview,
    );
  }

  async current(changeRequestId: string): Promise<Review[]> {
    const rows: ReviewRow[] = await this.db.query(
      'SELECT * FROM change_request_reviews WHERE change_request_id = $1 AND NOT outdated ORDER BY seq',
      [changeRequestId],
    );
    return rows.map(toReview);
  }

  async supersede(changeRequestId: string, reviewer: string, at: Date): Promise<void> {
    await this.db.query(
      'UPDATE change_request_reviews SET outdated = true, updated_at = $3 WHERE change_request_id = $1 AND reviewer = $2 AND NOT outdated',
      [changeRequestId, reviewer, at],
    );
  }

  async requests(changeRequestId: string, page: PageRequest): Promise<Page<ReviewRequest>> {
    return mapPage(
      await keysetPage<RequestRow>(
        this.db,
        'SELECT * FROM change_request_review_requests WHERE change_request_id = $1',
        [changeRequestId],
        bySeq<RequestRow>(),
        page,
      ),
      toRequest,
    );
  }

  /** A change in who is asked shows in the `requestedReviewer` filter: the row is stamped anew (trigger). */
  private async stamp(changeRequestId: string): Promise<void> {
    await this.db.query('UPDATE change_requests SET list_version = 0 WHERE id = $1', [changeRequestId]);
  }

  async request(requests: ReviewRequest[]): Promise<void> {
    for (const id of new Set(requests.map((r) => r.changeRequestId))) await this.stamp(id);
    for (const r of requests)
      await this.db.query(
        `INSERT INTO change_request_review_requests (change_request_id, user_id, requested_by, revision, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = $3, revision = $4, created_at = $5`,
        [r.changeRequestId, r.userId, r.requestedBy, r.revision, r.createdAt],
      );
  }

  async takeRequest(changeRequestId: string, userId: string): Promise<ReviewRequest | null> {
    // In a CTE: a bare DELETE … RETURNING answers [rows, count] through TypeORM.
    const rows: RequestRow[] = await this.db.query(
      'WITH d AS (DELETE FROM change_request_review_requests WHERE change_request_id = $1 AND user_id = $2 RETURNING *) SELECT * FROM d',
      [changeRequestId, userId],
    );
    if (rows.length) await this.stamp(changeRequestId);
    return rows.length ? toRequest(rows[0]) : null;
  }
}
