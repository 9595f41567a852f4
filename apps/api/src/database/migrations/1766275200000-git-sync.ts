import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Git Sync (#32): a revision records the commit an import made it from (the official `git` of a revision) and
 * holds its reusable contents and variables (a repository's `.gitbook/includes/` and `vars.yaml`; null: none,
 * or as its first parent); a
 * space's connection to a branch (credentials and the push webhook's secret sealed) with the commit and revision
 * both sides last agreed on;
 * and the operations on it, run one at a time per space in the order of their official `timestamp`.
 */
export class GitSync1766275200000 implements MigrationInterface {
  name = 'GitSync1766275200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE revisions ADD COLUMN git jsonb, ADD COLUMN reusable_contents jsonb, ADD COLUMN variables jsonb;
      CREATE TABLE git_sync (
        space_id text PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        url text NOT NULL,
        credentials text,
        ref text NOT NULL,
        project_directory text NOT NULL DEFAULT '',
        last_commit text,
        last_revision text,
        operation jsonb,
        connected_by text NOT NULL,
        webhook_secret text NOT NULL,
        polled_at timestamptz,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE git_sync_operations (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        space_id text NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('import', 'export')),
        url text NOT NULL,
        credentials text,
        ref text NOT NULL,
        project_directory text NOT NULL DEFAULT '',
        commit_message text,
        force boolean NOT NULL DEFAULT false,
        standalone boolean NOT NULL DEFAULT false,
        requested_at timestamptz NOT NULL,
        requested_by text NOT NULL,
        change_request text,
        state text NOT NULL CHECK (state IN ('pending', 'running', 'success', 'failure')),
        attempts int NOT NULL DEFAULT 0,
        started_at timestamptz,
        ended_at timestamptz,
        error text,
        commit text
      );
      CREATE INDEX git_sync_operations_waiting ON git_sync_operations (space_id, requested_at, seq) WHERE state IN ('pending', 'running');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE git_sync_operations;
      DROP TABLE git_sync;
      ALTER TABLE revisions DROP COLUMN git, DROP COLUMN reusable_contents, DROP COLUMN variables;
    `);
  }
}
