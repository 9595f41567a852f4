import { MigrationInterface, QueryRunner } from 'typeorm';

/** Teams and team members, organization invite links, SAML providers and SSO login state. */
export class TeamsInvitesSaml1764201600000 implements MigrationInterface {
  name = 'TeamsInvitesSaml1764201600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organization_members ADD COLUMN last_seen_at timestamptz;
      CREATE INDEX organization_members_org_idx ON organization_members (organization_id, joined_at, user_id);

      CREATE TABLE teams (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        title text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX teams_org_idx ON teams (organization_id, created_at, id);

      CREATE TABLE team_members (
        team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        user_id text NOT NULL,
        role text NOT NULL,
        added_at timestamptz NOT NULL,
        PRIMARY KEY (team_id, user_id),
        FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id) ON DELETE CASCADE
      );
      CREATE INDEX team_members_user_idx ON team_members (organization_id, user_id);

      CREATE TABLE organization_invites (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        role text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX organization_invites_org_idx ON organization_invites (organization_id, created_at, id);

      CREATE TABLE saml_providers (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        label text NOT NULL,
        entity_id text,
        certificate text,
        sso_url text,
        default_team_id text REFERENCES teams (id) ON DELETE SET NULL,
        default_role text,
        status text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX saml_providers_org_idx ON saml_providers (organization_id, created_at, id);

      -- AuthnRequests we sent (InResponseTo must match one, once) and assertions we accepted (never twice).
      CREATE TABLE saml_requests (
        id text PRIMARY KEY,
        provider_id text NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE saml_assertions (
        provider_id text NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
        assertion_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (provider_id, assertion_id)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE saml_assertions; DROP TABLE saml_requests; DROP TABLE saml_providers; DROP TABLE organization_invites;
      DROP TABLE team_members; DROP TABLE teams; DROP INDEX organization_members_org_idx; ALTER TABLE organization_members DROP COLUMN last_seen_at;`);
  }
}
