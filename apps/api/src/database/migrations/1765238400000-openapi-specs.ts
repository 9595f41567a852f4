import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenAPI specifications (openapi-specs):
 * - `openapi_specs`: one per (organization, slug); the source (`url` or `text`), its `source_revision`
 *   (moves with every change: a processing run keeps its result only for the revision it read), the
 *   processing state and the last run's errors.
 * - `openapi_spec_versions`: a version per distinct processed content (SHA-256), with the text.
 */
export class OpenApiSpecs1765238400000 implements MigrationInterface {
  name = 'OpenApiSpecs1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE openapi_specs (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        organization_id text NOT NULL,
        slug text NOT NULL,
        visibility text NOT NULL DEFAULT 'private',
        source_kind text NOT NULL,
        source_url text,
        source_text text,
        source_revision int NOT NULL DEFAULT 1,
        processing_state text NOT NULL,
        claimed_at timestamptz,
        last_processed_at timestamptz,
        last_process_error_code text,
        last_processed_errors jsonb NOT NULL DEFAULT '[]',
        last_processed_error_count int NOT NULL DEFAULT 0,
        last_version_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (organization_id, slug)
      )`);
    await q.query(
      `CREATE INDEX openapi_specs_waiting ON openapi_specs (processing_state, updated_at) WHERE processing_state <> 'complete'`,
    );
    await q.query(`
      CREATE TABLE openapi_spec_versions (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        spec_id text NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        source_url text,
        format text NOT NULL,
        content_hash text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions (spec_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE openapi_spec_versions');
    await q.query('DROP TABLE openapi_specs');
  }
}
