import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comments and replies on spaces and change requests (review-and-comments):
 * - `comments`: a comment (`parent_id` null) or a reply (`parent_id` its comment); `change_request_id`
 *   null for a comment on the space. Bodies are kept as the JSON document and as its markdown
 *   (rendered once, at write). `seq` orders them as they were posted (timestamps can tie). Deleting a comment deletes its replies and reactions.
 * - `comment_reactions`: one row per (comment or reply, user, emoji).
 * - `change_requests.comments_count`: open comments of the change request (as `spaces.comments_count`).
 */
export class Comments1764720000000 implements MigrationInterface {
  name = 'Comments1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE comments (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        space_id text NOT NULL,
        change_request_id text,
        parent_id text REFERENCES comments (id) ON DELETE CASCADE,
        body_document jsonb NOT NULL,
        body_markdown text NOT NULL,
        posted_by text NOT NULL,
        posted_at timestamptz NOT NULL,
        edited_at timestamptz,
        target_page text,
        target_node text,
        target_table_record text,
        target_table_definition text,
        target_revision text NOT NULL,
        status text NOT NULL DEFAULT 'open',
        resolved_at timestamptz,
        resolved_by text
      );
      CREATE INDEX comments_thread_idx ON comments (space_id, change_request_id, seq) WHERE parent_id IS NULL;
      CREATE INDEX comments_replies_idx ON comments (parent_id, seq) WHERE parent_id IS NOT NULL;
      CREATE TABLE comment_reactions (
        comment_id text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
        user_id text NOT NULL,
        emoji text NOT NULL,
        reacted_at timestamptz NOT NULL,
        PRIMARY KEY (comment_id, emoji, user_id)
      );
      ALTER TABLE change_requests ADD COLUMN comments_count integer NOT NULL DEFAULT 0;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE change_requests DROP COLUMN comments_count; DROP TABLE comment_reactions; DROP TABLE comments;');
  }
}
