import { MigrationInterface, QueryRunner } from 'typeorm';

/** The organization-wide change request list, newest first by update or creation (keyset order). */
export class OrganizationChangeRequests1764892800000 implements MigrationInterface {
  name = 'OrganizationChangeRequests1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX change_requests_org_updated_idx ON change_requests (organization_id, updated_at DESC, id DESC);
      CREATE INDEX change_requests_org_created_idx ON change_requests (organization_id, created_at DESC, id DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX change_requests_org_created_idx; DROP INDEX change_requests_org_updated_idx;');
  }
}
