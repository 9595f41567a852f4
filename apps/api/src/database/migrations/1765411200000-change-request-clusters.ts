import { MigrationInterface, QueryRunner } from 'typeorm';

/** A change request can be linked to an issues cluster (`conversationsIssuesCluster`), which the list filters use. */
export class ChangeRequestClusters1765411200000 implements MigrationInterface {
  name = 'ChangeRequestClusters1765411200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE change_requests ADD COLUMN conversations_issues_cluster text');
    await q.query(
      'CREATE INDEX change_requests_cluster ON change_requests (organization_id, conversations_issues_cluster) WHERE conversations_issues_cluster IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX change_requests_cluster');
    await q.query('ALTER TABLE change_requests DROP COLUMN conversations_issues_cluster');
  }
}
