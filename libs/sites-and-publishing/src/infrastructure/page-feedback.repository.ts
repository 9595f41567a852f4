import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { PageFeedback, PageFeedbackFilter, PageFeedbackRating, PageFeedbackRepository } from '../domain/page-feedback';

interface PageFeedbackRow {
  id: string;
  seq: string;
  organization_id: string;
  site_id: string;
  space_id: string;
  page_id: string;
  page_path: string;
  rating: string;
  comment: string | null;
  comment_key: string;
  created_at: Date;
}

const toFeedback = (r: PageFeedbackRow): PageFeedback => ({
  id: r.id,
  organizationId: r.organization_id,
  siteId: r.site_id,
  spaceId: r.space_id,
  pageId: r.page_id,
  pagePath: r.page_path,
  rating: r.rating as PageFeedbackRating,
  comment: r.comment,
  commentKey: r.comment_key,
  createdAt: r.created_at,
});

@Injectable()
export class PgPageFeedbackRepository extends PageFeedbackRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(f: PageFeedback): Promise<void> {
    await this.db.query(
      `INSERT INTO page_feedback (id, organization_id, site_id, space_id, page_id, page_path, rating, comment, comment_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [f.id, f.organizationId, f.siteId, f.spaceId, f.pageId, f.pagePath, f.rating, f.comment, f.commentKey, f.createdAt],
    );
  }

  async addComment(siteId: string, id: string, commentKey: string, comment: string): Promise<boolean> {
    const changed = await this.db.execute(
      'UPDATE page_feedback SET comment = $4 WHERE site_id = $1 AND id = $2 AND comment_key = $3 AND comment IS NULL',
      [siteId, id, commentKey, comment],
    );
    return changed === 1;
  }

  async list(siteId: string, filter: PageFeedbackFilter, page: PageRequest): Promise<Page<PageFeedback>> {
    const params: unknown[] = [siteId];
    let sql = 'SELECT * FROM page_feedback WHERE site_id = $1';
    if (filter.rating) sql += ` AND rating = $${params.push(filter.rating)}`;
    if (filter.spaceId) sql += ` AND space_id = $${params.push(filter.spaceId)}`;
    if (filter.pageId) sql += ` AND page_id = $${params.push(filter.pageId)}`;
    if (filter.commented !== undefined) sql += filter.commented ? ' AND comment IS NOT NULL' : ' AND comment IS NULL';
    const result = await keysetPage<PageFeedbackRow>(
      this.db,
      sql,
      params,
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)], direction: 'desc' },
      page,
    );
    return mapPage(result, toFeedback);
  }
}
