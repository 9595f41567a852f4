import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Git Sync (#32): what a repository import read beside each page (its file's path and markdown, the digest of the
 * page as imported), the files' paths, the summary and `.gitbook.yaml`, so that an export writes back exactly
 * what the space did not change. Gone with the space.
 */
export class RepositorySources1766188800000 implements MigrationInterface {
  name = 'RepositorySources1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE repository_sources (
        space_id text NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('page', 'reusable', 'file', 'summary', 'config', 'vars')),
        key text NOT NULL,
        path text,
        digest text NOT NULL,
        body text,
        PRIMARY KEY (space_id, kind, key)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE repository_sources');
  }
}
