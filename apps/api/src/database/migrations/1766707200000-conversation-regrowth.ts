import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many conversations the organization's last full clustering read (#35). Processing clusters an organization
 * again from every conversation once it has twice as many (docs/conversations-clustering.md, "Re-clustering"):
 * the decisions made while its document frequencies were few are made again. 0 for organizations clustered
 * before: their next processing run clusters them again in full.
 */
export class ConversationRegrowth1766707200000 implements MigrationInterface {
  name = 'ConversationRegrowth1766707200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums ADD COLUMN clustered integer NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums DROP COLUMN clustered');
  }
}
