import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page feedback (#49): what visitors of a published page say of it (the official rating, an optional comment).
 * Nothing of the visitor: no address, no user agent. `comment_key` lets the visitor's browser add the comment
 * to the rating it just gave, once. Listed per site, newest first, by rating, space or page.
 */
export class PageFeedback1767139200000 implements MigrationInterface {
  name = 'PageFeedback1767139200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE page_feedback (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        space_id text NOT NULL,
        page_id text NOT NULL,
        page_path text NOT NULL,
        rating text NOT NULL CHECK (rating IN ('good', 'ok', 'bad')),
        comment text CHECK (char_length(comment) BETWEEN 1 AND 512),
        comment_key text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX page_feedback_site ON page_feedback (site_id, seq)');
    await q.query('CREATE INDEX page_feedback_page ON page_feedback (site_id, page_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE page_feedback');
  }
}
