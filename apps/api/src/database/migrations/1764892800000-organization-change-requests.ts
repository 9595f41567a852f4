import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization-wide change request list (newest first by update or creation, keyset order):
 * - `change_requests.space_live`: false while the space is deleted (kept by the review context through
 *   the SpaceLifecycle port); the list and its count read only live ones, from partial indexes.
 * - Rows that earlier code left behind are put right: change requests of spaces transferred to another
 *   organization take its id, those of purged spaces (and their comments) are removed.
 */
export class OrganizationChangeRequests1764892800000 implements MigrationInterface {
  name = 'OrganizationChangeRequests1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE change_requests ADD COLUMN space_live boolean NOT NULL DEFAULT true;
      DELETE FROM comments c WHERE NOT EXISTS (SELECT 1 FROM spaces s WHERE s.id = c.space_id);
      DELETE FROM change_requests c WHERE NOT EXISTS (SELECT 1 FROM spaces s WHERE s.id = c.space_id);
      UPDATE change_requests c SET organization_id = s.organization_id, space_live = s.deleted_at IS NULL
        FROM spaces s WHERE s.id = c.space_id AND (c.organization_id <> s.organization_id OR s.deleted_at IS NOT NULL);
      UPDATE comments c SET organization_id = s.organization_id FROM spaces s WHERE s.id = c.space_id AND c.organization_id <> s.organization_id;
      CREATE INDEX change_requests_org_updated_idx ON change_requests (organization_id, updated_at DESC, id DESC) WHERE space_live;
      CREATE INDEX change_requests_org_created_idx ON change_requests (organization_id, created_at DESC, id DESC) WHERE space_live;
      CREATE INDEX change_requests_org_status_idx ON change_requests (organization_id, status) WHERE space_live;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX change_requests_org_status_idx; DROP INDEX change_requests_org_created_idx; DROP INDEX change_requests_org_updated_idx;
      ALTER TABLE change_requests DROP COLUMN space_live;
    `);
  }
}
