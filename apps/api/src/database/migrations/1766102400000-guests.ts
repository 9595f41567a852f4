import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guests and restricted content (#31): a member's role and a link invite's role may be null (a guest, the
 * official `MemberRoleOrGuest`); restricted spaces (default level null) are found per organization by a
 * partial index, read with the collection tree on every list.
 */
export class Guests1766102400000 implements MigrationInterface {
  name = 'Guests1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organization_members ALTER COLUMN role DROP NOT NULL;
      ALTER TABLE organization_invites ALTER COLUMN role DROP NOT NULL;
      CREATE INDEX spaces_restricted_idx ON spaces (organization_id) WHERE default_level IS NULL AND deleted_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX spaces_restricted_idx;
      DELETE FROM organization_invites WHERE role IS NULL;
      DELETE FROM organization_members WHERE role IS NULL;
      ALTER TABLE organization_invites ALTER COLUMN role SET NOT NULL;
      ALTER TABLE organization_members ALTER COLUMN role SET NOT NULL;
    `);
  }
}
