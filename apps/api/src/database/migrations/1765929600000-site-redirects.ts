import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `site_redirects`: the official site redirects. One live and one draft redirect at most per source;
 * the destination is the official object as JSON (a section, a site space, a page, an external URL).
 */
export class SiteRedirects1765929600000 implements MigrationInterface {
  name = 'SiteRedirects1765929600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE site_redirects (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        source text NOT NULL,
        draft boolean NOT NULL,
        capture_wildcard boolean NOT NULL,
        permanent boolean NOT NULL,
        destination jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz,
        UNIQUE (site_id, draft, source)
      )`);
    await q.query('CREATE INDEX site_redirects_site ON site_redirects (site_id, draft, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE site_redirects');
  }
}
