// Conversations' minute sweep at scale (by hand: node bench/conversations-sweep.mjs; not part of npm run bench).
// Seeds ORGS organizations × PER conversations (default 1,000 × 2,000), each clustered in full two days ago, GROWN of
// them (default 10) by a tenth since, then times the sweep's daily-refresh question
// (SqlConversationRepository.organizationsToRefresh, the real query from dist/) three times.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { apiStarter } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const { SqlConversationRepository } = await import('../dist/libs/conversations/src/infrastructure/conversations.repository.js');
const ORGS = Number(process.env.ORGS ?? 1000);
const PER = Number(process.env.PER ?? 2000);
const GROWN = Number(process.env.GROWN ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-sweep-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
try {
  // The API applies the migrations; then it is stopped: only the query is measured.
  await apiStarter({ databaseUrl: db.url, dataDir, token: 'bench-token-0123456789abcdefghijklmnopqr', children })({ QUIRE_JOBS: 'off' });
  for (const c of children.splice(0)) c.kill('SIGTERM');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const seeding = performance.now();
  const orgs = `generate_series(1, ${ORGS}) o`;
  await client.query(`INSERT INTO conversations (organization_id, id, subject, source, parts, created_at, ingested_at, processed_at)
    SELECT 'org-' || o, 'c-' || i, '', 'email', '[]', now(), now(), now() FROM ${orgs}, generate_series(1, ${PER}) i`);
  await client.query(`INSERT INTO conversation_clusters (id, organization_id, label, summary, icon, centroid, created_at, updated_at)
    SELECT 'cl-' || o, 'org-' || o, '', '', '', '{}', now(), now() FROM ${orgs}`);
  await client.query(`INSERT INTO conversation_issues (id, organization_id, conversation_id, cluster_id, title, summary, source, vector, created_at, ingested_at)
    SELECT 'i-' || o, 'org-' || o, 'c-1', 'cl-' || o, '', '', 'email', '{}', now(), now() FROM ${orgs}`);
  // Clustered in full two days ago (clustered_seq: the highest seq then, as a full clustering records it).
  await client.query(`INSERT INTO conversation_embedding_sums (organization_id, sum, count, algorithm, clustered, clustered_at, clustered_seq)
    SELECT 'org-' || o, '[]', ${PER}, 5, ${PER}, now() - interval '2 days',
      (SELECT max(seq) FROM conversations c WHERE c.organization_id = 'org-' || o) FROM ${orgs}`);
  // GROWN of them have grown by a tenth since: the sweep should ask for those (at most 100 at a time).
  await client.query(`INSERT INTO conversations (organization_id, id, subject, source, parts, created_at, ingested_at, processed_at)
    SELECT 'org-' || o, 'n-' || i, '', 'email', '[]', now(), now(), now()
      FROM generate_series(1, ${GROWN}) o, generate_series(1, ${Math.ceil(PER / 10)}) i`);
  await client.query('VACUUM ANALYZE');
  console.log(`seeded ${ORGS} organizations × ${PER} conversations in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const repository = new SqlConversationRepository({ query: async (sql, params) => (await client.query(sql, params)).rows });
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    const due = await repository.organizationsToRefresh(new Date(Date.now() - 86_400_000));
    console.log(`organizationsToRefresh: ${due.length} due (expected ${Math.min(GROWN, 100)}), ${(performance.now() - t0).toFixed(0)} ms`);
  }
  await client.end();
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
