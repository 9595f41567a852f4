import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sites and publishing (sites-and-publishing):
 * - `sites`: one row per site; its structure (sections, section groups, site spaces, in order) is one
 *   JSON document written whole under a row lock; `space_ids` indexes the spaces it shows (the `space`
 *   filter and the space lifecycle); `version` moves on every change of the site, its settings, its
 *   share links or a space it shows (the published-site cache key).
 *   `visitor_auth_*`: the key visitor tokens of a `visitor-auth` site are signed with (HS256), and its URLs.
 * - `site_share_links`: share links with their secret key.
 */
export class Sites1765152000000 implements MigrationInterface {
  name = 'Sites1765152000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sites (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        organization_id text NOT NULL,
        type text NOT NULL,
        title text NOT NULL,
        hostname text,
        basename text,
        proxy text,
        visibility text NOT NULL,
        published boolean NOT NULL DEFAULT false,
        adaptive_content boolean NOT NULL DEFAULT false,
        agents_context text NOT NULL DEFAULT 'included',
        structure jsonb NOT NULL,
        space_ids text[] NOT NULL DEFAULT '{}',
        site_spaces int NOT NULL DEFAULT 0,
        version bigint NOT NULL DEFAULT 1,
        adaptive_schema jsonb,
        adaptive_schema_updated_at timestamptz,
        customization jsonb,
        customization_updated_at timestamptz,
        visitor_auth_key text,
        visitor_auth_fallback_url text,
        visitor_auth_logout_url text,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX sites_organization ON sites (organization_id, seq)');
    await q.query('CREATE INDEX sites_space_ids ON sites USING gin (space_ids)');
    await q.query('CREATE UNIQUE INDEX sites_hostname ON sites (hostname) WHERE hostname IS NOT NULL');
    await q.query(`
      CREATE TABLE site_share_links (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        name text NOT NULL,
        key text NOT NULL UNIQUE,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX site_share_links_site ON site_share_links (site_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE site_share_links');
    await q.query('DROP TABLE sites');
  }
}
