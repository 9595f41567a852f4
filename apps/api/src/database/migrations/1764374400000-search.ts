import { MigrationInterface, QueryRunner } from 'typeorm';

/** Full-text search over the current revision of each space (one row per page section), and page links. */
export class Search1764374400000 implements MigrationInterface {
  name = 'Search1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE search_sections (
        organization_id text NOT NULL,
        space_id text NOT NULL,
        page_id text NOT NULL,
        section integer NOT NULL,
        page_title text NOT NULL,
        page_path text NOT NULL,
        ancestors jsonb NOT NULL DEFAULT '[]',
        page_description text NOT NULL DEFAULT '',
        title text NOT NULL,
        anchor text,
        body text NOT NULL,
        config regconfig NOT NULL,
        tsv tsvector NOT NULL,
        PRIMARY KEY (space_id, page_id, section)
      );
      CREATE INDEX search_sections_tsv_idx ON search_sections USING gin (tsv);
      CREATE INDEX search_sections_org_idx ON search_sections (organization_id, config);

      -- Links found in each page body, extracted when the body is written (bodies are content-addressed).
      CREATE TABLE document_links (
        organization_id text NOT NULL,
        hash text NOT NULL,
        seq integer NOT NULL,
        kind text NOT NULL,
        target text NOT NULL,
        anchor text,
        PRIMARY KEY (organization_id, hash, seq)
      );
      CREATE INDEX document_links_target_idx ON document_links (organization_id, kind, target);

      -- Which revision of each space the index reflects, and its page fingerprints.
      CREATE TABLE search_state (
        space_id text PRIMARY KEY,
        revision text NOT NULL,
        pages jsonb NOT NULL
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE search_state; DROP TABLE document_links; DROP TABLE search_sections;');
  }
}
