import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The collector of what nothing references (#33): page bodies and file bytes carry the time they were first
 * seen unreferenced, and are removed a grace period later if still nothing references them. File bytes get a
 * row of their own (`file_blobs`), filled from every revision's files.
 */
export class Collector1766448000000 implements MigrationInterface {
  name = 'Collector1766448000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE documents ADD COLUMN unreferenced_since timestamptz;
      CREATE INDEX documents_unreferenced_idx ON documents (unreferenced_since) WHERE unreferenced_since IS NOT NULL;
      CREATE TABLE file_blobs (
        organization_id text NOT NULL,
        hash text NOT NULL,
        unreferenced_since timestamptz,
        PRIMARY KEY (organization_id, hash)
      );
      CREATE INDEX file_blobs_unreferenced_idx ON file_blobs (unreferenced_since) WHERE unreferenced_since IS NOT NULL;
      INSERT INTO file_blobs (organization_id, hash)
        SELECT DISTINCT r.organization_id, f->>'hash' FROM revisions r, jsonb_array_elements(r.files) f
        WHERE f->>'hash' IS NOT NULL
        ON CONFLICT DO NOTHING;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE file_blobs; ALTER TABLE documents DROP COLUMN unreferenced_since;');
  }
}
