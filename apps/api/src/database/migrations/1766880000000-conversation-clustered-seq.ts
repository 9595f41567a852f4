import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The highest `conversations.seq` of the organization when its last full clustering was recorded (#35). The minute
 * sweep asks whether an organization has grown by a tenth since (docs/conversations-clustering.md, "Re-clustering")
 * by counting only the conversations after it, at most a tenth of the last full clustering: an organization that
 * did not grow costs one index probe instead of counting all of its conversations every minute. Existing rows take
 * the organization's highest seq now, which can only under-count their growth: the sweep asks later, never in vain.
 */
export class ConversationClusteredSeq1766880000000 implements MigrationInterface {
  name = 'ConversationClusteredSeq1766880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums ADD COLUMN clustered_seq bigint NOT NULL DEFAULT 0');
    await q.query(`UPDATE conversation_embedding_sums s
       SET clustered_seq = coalesce((SELECT max(c.seq) FROM conversations c WHERE c.organization_id = s.organization_id), 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation_embedding_sums DROP COLUMN clustered_seq');
  }
}
