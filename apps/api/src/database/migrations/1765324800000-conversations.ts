import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations (conversations):
 * - `conversations`: ingested support conversations, keyed by the caller's id within the organization
 *   (re-ingesting updates); `processed_at` null until the background job extracted its issue.
 * - `conversation_issues`: the issue extracted from a conversation, with its term vector (to move its
 *   cluster's centroid when the conversation changes) and its cluster.
 * - `conversation_clusters`: issue clusters with their centroid (sum of member vectors, top terms), the
 *   best representative so far (label, summary) and counters.
 * - `conversation_terms`: per organization, in how many issues a term occurs (the IDF of TF-IDF).
 * - `conversation_versions`: moves whenever a processing run changes an organization's issues and
 *   clusters (the key of the cached cluster lists).
 * - `agent_instructions`: one document per organization.
 */
export class Conversations1765324800000 implements MigrationInterface {
  name = 'Conversations1765324800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE conversations (
        organization_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        subject text NOT NULL,
        source text NOT NULL,
        url text,
        attributes jsonb NOT NULL DEFAULT '{}',
        parts jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        ingested_at timestamptz NOT NULL,
        processed_at timestamptz,
        PRIMARY KEY (organization_id, id)
      )`);
    await q.query('CREATE INDEX conversations_list ON conversations (organization_id, seq)');
    await q.query('CREATE INDEX conversations_unprocessed ON conversations (organization_id, ingested_at) WHERE processed_at IS NULL');
    await q.query(`
      CREATE TABLE conversation_clusters (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        label text NOT NULL,
        summary text NOT NULL,
        icon text NOT NULL,
        centroid jsonb NOT NULL,
        best_similarity float8 NOT NULL DEFAULT 0,
        issues_count int NOT NULL DEFAULT 0,
        last_issue_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX conversation_clusters_org ON conversation_clusters (organization_id, updated_at, id)');
    await q.query(`
      CREATE TABLE conversation_issues (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        organization_id text NOT NULL,
        conversation_id text NOT NULL,
        cluster_id text NOT NULL REFERENCES conversation_clusters (id),
        title text NOT NULL,
        summary text NOT NULL,
        source text NOT NULL,
        vector jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        ingested_at timestamptz NOT NULL,
        FOREIGN KEY (organization_id, conversation_id) REFERENCES conversations (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX conversation_issues_org ON conversation_issues (organization_id, seq)');
    await q.query('CREATE INDEX conversation_issues_cluster ON conversation_issues (cluster_id, created_at)');
    await q.query('CREATE INDEX conversation_issues_conversation ON conversation_issues (organization_id, conversation_id)');
    await q.query(`
      CREATE TABLE conversation_terms (
        organization_id text NOT NULL,
        term text NOT NULL,
        df int NOT NULL,
        PRIMARY KEY (organization_id, term)
      )`);
    await q.query('CREATE TABLE conversation_versions (organization_id text PRIMARY KEY, version bigint NOT NULL)');
    await q.query(`
      CREATE TABLE agent_instructions (
        organization_id text PRIMARY KEY,
        instructions jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'agent_instructions',
      'conversation_versions',
      'conversation_terms',
      'conversation_issues',
      'conversation_clusters',
      'conversations',
    ])
      await q.query(`DROP TABLE ${t}`);
  }
}
