import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { SpaceLifecycle } from '@app/spaces-and-content';

/**
 * The content context's SpaceLifecycle port: change requests, comments and reviews follow their space
 * (inside the unit of work that changes it). A deleted space's change requests leave the
 * organization-wide list (`space_live`) and come back on restore; a transfer takes them, their comments
 * and reviews to the new organization; a purge removes them (reviews, requests, replies and reactions
 * go with them by foreign key).
 */
@Injectable()
export class ReviewSpaceLifecycle extends SpaceLifecycle {
  constructor(private readonly db: Db) {
    super();
  }

  async deleted(spaceId: string): Promise<void> {
    await this.db.query('UPDATE change_requests SET space_live = false WHERE space_id = $1', [spaceId]);
  }

  async restored(spaceId: string): Promise<void> {
    await this.db.query('UPDATE change_requests SET space_live = true WHERE space_id = $1', [spaceId]);
  }

  async transferred(spaceId: string, toOrganizationId: string): Promise<void> {
    // Rows leave the old organization's list: its cached lists must not survive that.
    await this.mark(spaceId);
    for (const table of ['change_requests', 'comments', 'change_request_reviews'])
      await this.db.query(`UPDATE ${table} SET organization_id = $2 WHERE space_id = $1`, [spaceId, toOrganizationId]);
  }

  /**
   * Main moved: whether each change request of the space is `outdated` may have changed. Marked, not
   * written on the rows: concurrent merges into the space hold those rows (a write would deadlock).
   */
  async revisionMoved(spaceId: string): Promise<void> {
    await this.mark(spaceId);
  }

  /** A stamp for the organization whose change requests live in the space (no row lock taken). */
  private async mark(spaceId: string): Promise<void> {
    await this.db.query(
      'INSERT INTO change_request_list_marks (organization_id) SELECT DISTINCT organization_id FROM change_requests WHERE space_id = $1',
      [spaceId],
    );
  }

  /** A space's own fields are not copied into change requests or comments: nothing to do. */
  async updated(): Promise<void> {}

  async purged(spaceIds: string[]): Promise<void> {
    await this.db.query('DELETE FROM comments WHERE space_id = ANY($1::text[])', [spaceIds]);
    await this.db.query('DELETE FROM change_requests WHERE space_id = ANY($1::text[])', [spaceIds]);
  }
}
