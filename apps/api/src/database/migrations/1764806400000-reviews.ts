import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reviews of change requests and review requests (review-and-comments):
 * - `change_request_reviews`: a submitted review (approved / changes-requested) against the change
 *   request's head at the time; `outdated` once the same reviewer submits again or is asked again.
 * - `change_request_review_requests`: pending requests, one per (change request, user); submitting a
 *   review fulfils (removes) the reviewer's request.
 * - `comments.target_review`: the review a comment was posted with.
 */
export class Reviews1764806400000 implements MigrationInterface {
  name = 'Reviews1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE change_request_reviews (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        space_id text NOT NULL,
        change_request_id text NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
        reviewer text NOT NULL,
        requested_by text,
        status text NOT NULL,
        revision text NOT NULL,
        comment_id text,
        outdated boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX change_request_reviews_cr_idx ON change_request_reviews (change_request_id, seq);
      CREATE TABLE change_request_review_requests (
        change_request_id text NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
        user_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        requested_by text NOT NULL,
        revision text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (change_request_id, user_id)
      );
      CREATE INDEX change_request_review_requests_user_idx ON change_request_review_requests (user_id);
      ALTER TABLE comments ADD COLUMN target_review text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE comments DROP COLUMN target_review; DROP TABLE change_request_review_requests; DROP TABLE change_request_reviews;',
    );
  }
}
