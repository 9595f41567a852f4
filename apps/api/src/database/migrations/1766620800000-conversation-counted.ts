import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What processing counted of each conversation (#35): its terms (in the organization's document frequencies) and
 * its embedding before centering (in the organization's embedding sum). A conversation ingested again is counted
 * anew, so its old counts are taken out first. Conversations processed before have none: the re-clustering
 * that algorithm 4 brings (organizations clustered by algorithm 3) counts every conversation again from scratch.
 */
export class ConversationCounted1766620800000 implements MigrationInterface {
  name = 'ConversationCounted1766620800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversations ADD COLUMN counted jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversations DROP COLUMN counted');
  }
}
