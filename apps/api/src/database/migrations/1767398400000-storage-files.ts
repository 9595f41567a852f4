import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files an organization uploads for its sites (#50, the official `generateStorageUploadURL`): a row when the
 * upload URL is made (its token stored hashed), the bytes when they come. Ends with the organization. Pending
 * rows older than their URL are of no use and are removed by the same statement that adds a new one's.
 */
export class StorageFiles1767398400000 implements MigrationInterface {
  name = 'StorageFiles1767398400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE storage_files (
        key text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('customization_font', 'organization_file')),
        name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL CHECK (size > 0),
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        uploaded_at timestamptz,
        bytes bytea,
        CHECK ((uploaded_at IS NULL) = (bytes IS NULL)),
        CHECK (bytes IS NULL OR octet_length(bytes) = size)
      )`);
    await q.query('CREATE INDEX storage_files_pending ON storage_files (expires_at) WHERE uploaded_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE storage_files');
  }
}
