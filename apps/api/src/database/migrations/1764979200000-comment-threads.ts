import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `comment_threads`: a version per place comments live (a space: `change_request_id` ''; or a change
 * request), bumped by every write to its comments, replies or reactions. Rendered comment lists are
 * cached by it (docs/benchmarks.md); several API processes share it through the database.
 */
export class CommentThreads1764979200000 implements MigrationInterface {
  name = 'CommentThreads1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE comment_threads (
        space_id text NOT NULL,
        change_request_id text NOT NULL DEFAULT '',
        version bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (space_id, change_request_id)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE comment_threads;');
  }
}
