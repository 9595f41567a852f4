import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversation clustering by meaning too (#35): each issue keeps its embedding (word vectors, the organization's
 * mean taken out, unit length), each cluster the sum of its members', and each organization the sum of its
 * issues' embeddings before centering (their mean is what every text shares). Existing issues have none: the
 * re-clustering job gives them one.
 */
export class ConversationEmbeddings1766534400000 implements MigrationInterface {
  name = 'ConversationEmbeddings1766534400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE conversation_issues ADD COLUMN embedding jsonb NOT NULL DEFAULT '[]';
      ALTER TABLE conversation_clusters ADD COLUMN embedding jsonb NOT NULL DEFAULT '[]';
      CREATE TABLE conversation_embedding_sums (
        organization_id text PRIMARY KEY,
        sum jsonb NOT NULL,
        count int NOT NULL,
        algorithm int NOT NULL DEFAULT 0
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE conversation_embedding_sums;
      ALTER TABLE conversation_clusters DROP COLUMN embedding;
      ALTER TABLE conversation_issues DROP COLUMN embedding;
    `);
  }
}
