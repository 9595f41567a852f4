import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Translations (spec part 1 §2.8): a source space and language, a target language, and the state of
 * its runs. `pages` holds the source pages as of the latest completed run (what later runs compare);
 * `requested_at` marks a wanted run, `run_started_at` the one going on (claims are compare-and-set).
 */
export class Translations1765497600000 implements MigrationInterface {
  name = 'Translations1765497600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE translations (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        source_space_id text NOT NULL,
        source_language text NOT NULL,
        language text NOT NULL,
        instructions jsonb NOT NULL,
        status text NOT NULL,
        target_space_id text,
        result_revision text,
        stats jsonb NOT NULL,
        latest_run jsonb,
        pages jsonb NOT NULL DEFAULT '{}',
        requested_at timestamptz,
        run_started_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        created_by text NOT NULL
      )`);
    await q.query('CREATE INDEX translations_organization ON translations (organization_id, id)');
    await q.query(
      'CREATE INDEX translations_waiting ON translations (requested_at) WHERE requested_at IS NOT NULL OR run_started_at IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE translations');
  }
}
