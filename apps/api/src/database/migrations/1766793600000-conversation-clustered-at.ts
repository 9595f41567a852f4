import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the organization's last full clustering ran (#35). An organization that has grown by a tenth since is
 * clustered again in full once a day (docs/conversations-clustering.md, "Re-clustering"): conversations placed a
 * few at a time cluster worse than in one batch. Null for organizations clustered before: their next full
 * clustering sets it.
 */
export class ConversationClusteredAt1766793600000 implements MigrationInterface {
  name = 'ConversationClusteredAt1766793600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums ADD COLUMN clustered_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums DROP COLUMN clustered_at');
  }
}
