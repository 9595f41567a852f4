import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content permissions (official inviteToSpace / inviteToCollection / inviteToSite …): a role granted on a
 * space, a collection or a site to a member or a team. A grant only widens the member's organization role and default
 * levels. Removing the member from the organization, deleting the team, the space, the collection or
 * the site removes the grant with it.
 */
export class ContentPermissions1765584000000 implements MigrationInterface {
  name = 'ContentPermissions1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content_permissions (
        organization_id text NOT NULL,
        space_id text REFERENCES spaces (id) ON DELETE CASCADE,
        collection_id text REFERENCES collections (id) ON DELETE CASCADE,
        site_id text REFERENCES sites (id) ON DELETE CASCADE,
        user_id text,
        team_id text REFERENCES teams (id) ON DELETE CASCADE,
        role text NOT NULL,
        granted_at timestamptz NOT NULL,
        content_id text GENERATED ALWAYS AS (COALESCE(space_id, collection_id, site_id)) STORED,
        principal_id text GENERATED ALWAYS AS (COALESCE(user_id, team_id)) STORED,
        CHECK (num_nonnulls(space_id, collection_id, site_id) = 1),
        CHECK ((user_id IS NULL) <> (team_id IS NULL)),
        FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id) ON DELETE CASCADE
      )`);
    await q.query('CREATE UNIQUE INDEX content_permissions_key ON content_permissions (content_id, principal_id)');
    await q.query('CREATE INDEX content_permissions_user ON content_permissions (organization_id, user_id) WHERE user_id IS NOT NULL');
    await q.query('CREATE INDEX content_permissions_team ON content_permissions (team_id) WHERE team_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE content_permissions');
  }
}
