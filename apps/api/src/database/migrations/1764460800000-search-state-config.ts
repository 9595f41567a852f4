import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index state records the text-search configuration it was built with, so that a change
 * of a space's language re-indexes it (the revision alone does not change then), and so that
 * (revision, config) identifies exactly what the index of a space holds (the key of cached results).
 * The per-page fingerprints go: the indexer compares the indexed revision's tree with the new one.
 */
export class SearchStateConfig1764460800000 implements MigrationInterface {
  name = 'SearchStateConfig1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE search_state ADD COLUMN config text NOT NULL DEFAULT ''`);
    // Existing states take the configuration their rows were built with, so they stay current (a
    // space without rows has nothing to rebuild: its first search re-indexes it at no cost).
    await q.query(`
      UPDATE search_state st SET config = s.config
      FROM (SELECT DISTINCT ON (space_id) space_id, config::text AS config FROM search_sections ORDER BY space_id) s
      WHERE s.space_id = st.space_id`);
    await q.query('ALTER TABLE search_state DROP COLUMN pages');
  }

  async down(q: QueryRunner): Promise<void> {
    // Empty fingerprints: the previous indexer rewrites every page of a space on its next change.
    await q.query(`ALTER TABLE search_state ADD COLUMN pages jsonb NOT NULL DEFAULT '{}'`);
    await q.query('ALTER TABLE search_state DROP COLUMN config');
  }
}
