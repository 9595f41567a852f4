import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the organization's change request list is cached by (docs/benchmarks.md):
 * - `change_requests.list_version`: a stamp from one sequence, taken on insert and, by trigger, on every
 *   update of the row; the highest stamp of an organization's rows changes with any of them, and
 *   reading it is one index lookup. Sequences take no row lock: writers do not queue on a counter.
 * - `change_request_list_marks`: stamps from the same sequence for what changes the list without
 *   writing its rows — a space's main content moving (`outdated`), rows leaving the organization (a
 *   space transferred away). Insert-only: no writer waits for another (a merge must not lock the other
 *   change requests of its space: concurrent merges hold them).
 */
export class ChangeRequestListVersions1765065600000 implements MigrationInterface {
  name = 'ChangeRequestListVersions1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE SEQUENCE change_request_list_version;
      ALTER TABLE change_requests ADD COLUMN list_version bigint NOT NULL DEFAULT nextval('change_request_list_version');
      CREATE FUNCTION change_request_list_version_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.list_version := nextval('change_request_list_version');
        RETURN NEW;
      END $$;
      CREATE TRIGGER change_requests_list_version BEFORE UPDATE ON change_requests
        FOR EACH ROW EXECUTE FUNCTION change_request_list_version_stamp();
      CREATE INDEX change_requests_org_version_idx ON change_requests (organization_id, list_version DESC);
      CREATE TABLE change_request_list_marks (
        organization_id text NOT NULL,
        stamp bigint NOT NULL DEFAULT nextval('change_request_list_version')
      );
      CREATE INDEX change_request_list_marks_org_idx ON change_request_list_marks (organization_id, stamp DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE change_request_list_marks;
      DROP INDEX change_requests_org_version_idx;
      DROP TRIGGER change_requests_list_version ON change_requests;
      DROP FUNCTION change_request_list_version_stamp();
      ALTER TABLE change_requests DROP COLUMN list_version;
      DROP SEQUENCE change_request_list_version;
    `);
  }
}
