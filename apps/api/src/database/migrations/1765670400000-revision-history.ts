import { MigrationInterface, QueryRunner } from 'typeorm';

/** A space's history lists its revisions newest first: an insertion sequence orders revisions made in one instant. */
export class RevisionHistory1765670400000 implements MigrationInterface {
  name = 'RevisionHistory1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE revisions ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY');
    await q.query('CREATE INDEX revisions_space_seq ON revisions (space_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX revisions_space_seq');
    await q.query('ALTER TABLE revisions DROP COLUMN seq');
  }
}
