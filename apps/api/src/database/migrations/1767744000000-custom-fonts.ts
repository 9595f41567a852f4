import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom fonts (#52, the official custom-fonts operations): a family and its faces, each face a weight and the
 * storage key of an uploaded font file. Ends with the organization. `seq` orders the list (oldest first).
 */
export class CustomFonts1767744000000 implements MigrationInterface {
  name = 'CustomFonts1767744000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE custom_fonts (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        seq bigserial NOT NULL,
        font_family text NOT NULL CHECK (char_length(font_family) BETWEEN 1 AND 50),
        faces jsonb NOT NULL CHECK (jsonb_typeof(faces) = 'array' AND jsonb_array_length(faces) > 0),
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX custom_fonts_by_organization ON custom_fonts (organization_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE custom_fonts');
  }
}
