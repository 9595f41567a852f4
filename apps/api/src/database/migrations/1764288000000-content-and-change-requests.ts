import { MigrationInterface, QueryRunner } from 'typeorm';

/** Immutable revisions, content-addressed page bodies, change requests; an initial revision for existing spaces. */
export class ContentAndChangeRequests1764288000000 implements MigrationInterface {
  name = 'ContentAndChangeRequests1764288000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE revisions (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        space_id text NOT NULL,
        parents text[] NOT NULL DEFAULT '{}',
        type text NOT NULL,
        tree jsonb NOT NULL,
        files jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        created_by text,
        merged_from text
      );
      CREATE INDEX revisions_space_idx ON revisions (space_id, created_at);

      CREATE TABLE documents (
        organization_id text NOT NULL,
        hash text NOT NULL,
        body jsonb NOT NULL,
        PRIMARY KEY (organization_id, hash)
      );

      INSERT INTO revisions (id, organization_id, space_id, parents, type, tree, created_at)
        SELECT revision_id, organization_id, id, '{}', 'edits', '[]'::jsonb, created_at FROM spaces
        ON CONFLICT (id) DO NOTHING;

      CREATE TABLE change_requests (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        space_id text NOT NULL,
        number integer NOT NULL,
        status text NOT NULL,
        subject text NOT NULL DEFAULT '',
        description jsonb,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        merged_by text,
        merged_at timestamptz,
        revision text NOT NULL,
        revision_initial text NOT NULL,
        revision_merged_ancestor text,
        revision_merged text,
        contributors text[] NOT NULL DEFAULT '{}',
        UNIQUE (space_id, number)
      );
      CREATE INDEX change_requests_space_idx ON change_requests (space_id, status, number);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE change_requests; DROP TABLE documents; DROP TABLE revisions;');
  }
}
