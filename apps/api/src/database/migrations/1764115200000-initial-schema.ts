import { MigrationInterface, QueryRunner } from 'typeorm';

/** Identity, organizations, collections and spaces. */
export class InitialSchema1764115200000 implements MigrationInterface {
  name = 'InitialSchema1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id text PRIMARY KEY,
        email text NOT NULL,
        display_name text NOT NULL,
        photo_url text,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX users_email_key ON users (email);

      CREATE TABLE api_tokens (
        id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        label text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz
      );
      CREATE UNIQUE INDEX api_tokens_hash_key ON api_tokens (hash);
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);

      CREATE TABLE organizations (
        id text PRIMARY KEY,
        title text NOT NULL,
        created_at timestamptz NOT NULL,
        email_domains text[] NOT NULL DEFAULT '{}',
        hostname text,
        type text NOT NULL,
        use_case text,
        community_type text,
        default_role text,
        default_content jsonb,
        sso boolean NOT NULL DEFAULT false,
        ai boolean NOT NULL DEFAULT false,
        invite_links boolean NOT NULL DEFAULT true,
        plan text NOT NULL,
        merge_rules jsonb NOT NULL,
        logo text
      );
      CREATE UNIQUE INDEX organizations_hostname_key ON organizations (hostname) WHERE hostname IS NOT NULL;

      CREATE TABLE organization_members (
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL,
        joined_at timestamptz NOT NULL,
        sso boolean NOT NULL DEFAULT false,
        disabled boolean NOT NULL DEFAULT false,
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE INDEX organization_members_user_idx ON organization_members (user_id, joined_at, organization_id);

      CREATE TABLE collections (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        title text NOT NULL,
        description text,
        parent_id text,
        default_level text,
        position text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX collections_org_created_idx ON collections (organization_id, created_at, id);
      CREATE INDEX collections_parent_idx ON collections (organization_id, parent_id, position);

      CREATE TABLE spaces (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        title text NOT NULL,
        emoji text NOT NULL DEFAULT '',
        visibility text NOT NULL,
        edit_mode text NOT NULL,
        merge_rules jsonb NOT NULL,
        language text,
        parent_id text,
        default_level text,
        position text COLLATE "C" NOT NULL,
        revision_id text NOT NULL,
        comments_count integer NOT NULL DEFAULT 0,
        change_requests_count integer NOT NULL DEFAULT 0,
        change_requests_open_count integer NOT NULL DEFAULT 0,
        change_requests_draft_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      );
      CREATE INDEX spaces_org_created_idx ON spaces (organization_id, created_at, id) WHERE deleted_at IS NULL;
      CREATE INDEX spaces_parent_idx ON spaces (organization_id, parent_id, position) WHERE deleted_at IS NULL;
      CREATE INDEX spaces_deleted_idx ON spaces (deleted_at) WHERE deleted_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE spaces; DROP TABLE collections; DROP TABLE organization_members; DROP TABLE organizations; DROP TABLE api_tokens; DROP TABLE users;',
    );
  }
}
