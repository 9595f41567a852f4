import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organizations' translation glossaries (#52, the official listGlossaryEntries, updateGlossaryEntries and
 * getGlossaryEntry): one row per entry, its terms by language. A translation keeps the fingerprint of the terms
 * its last run applied: a run after they changed translates every page again.
 */
export class TranslationGlossary1767571200000 implements MigrationInterface {
  name = 'TranslationGlossary1767571200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE translation_glossary (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        translations jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX translation_glossary_organization ON translation_glossary (organization_id, seq)');
    await q.query(`ALTER TABLE translations ADD COLUMN glossary text NOT NULL DEFAULT ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE translations DROP COLUMN glossary');
    await q.query('DROP TABLE translation_glossary');
  }
}
