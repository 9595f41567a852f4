import { Injectable } from '@nestjs/common';
import { Db, isoSortKey, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { ClusterFacts, ClusterOrderBy, ClusterStatus } from '../domain/cluster-list';
import { Conversation, ConversationIssue, ConversationPart, Counted, IssuesCluster } from '../domain/conversation';
import { ConversationRepository } from '../domain/conversation-ports';
import { ClusteringState, REFRESH_PARTS, REGROWTH_UNTIL, type IssuePoint } from '../domain/clustering';

interface ConversationRow {
  organization_id: string;
  id: string;
  seq: string;
  subject: string;
  source: string;
  url: string | null;
  attributes: Record<string, string>;
  parts: ConversationPart[];
  created_at: Date;
  ingested_at: Date;
  processed_at: Date | null;
  counted: Counted | null;
}

interface IssueRow {
  id: string;
  seq: string;
  organization_id: string;
  conversation_id: string;
  cluster_id: string;
  title: string;
  summary: string;
  source: string;
  vector: Record<string, number>;
  embedding: number[];
  created_at: Date;
  ingested_at: Date;
}

interface ClusterRow {
  id: string;
  organization_id: string;
  label: string;
  summary: string;
  icon: string;
  centroid: Record<string, number>;
  embedding: number[];
  best_similarity: number;
  issues_count: number;
  last_issue_at: Date | null;
  created_at: Date;
  updated_at: Date;
  sort_key?: string;
}

/** Embeddings are kept to 5 decimals (what similarities need; a third of the text). */
const rounded = (v: number[]) => v.map((x) => Math.round(x * 1e5) / 1e5);

const toConversation = (r: ConversationRow): Conversation => ({
  id: r.id,
  organizationId: r.organization_id,
  subject: r.subject,
  source: r.source,
  url: r.url,
  attributes: r.attributes,
  parts: r.parts,
  createdAt: r.created_at,
  ingestedAt: r.ingested_at,
  processedAt: r.processed_at,
  ...(r.counted ? { counted: r.counted } : {}),
});

const toIssue = (r: IssueRow): ConversationIssue => ({
  id: r.id,
  organizationId: r.organization_id,
  conversationId: r.conversation_id,
  clusterId: r.cluster_id,
  title: r.title,
  summary: r.summary,
  source: r.source,
  vector: r.vector,
  embedding: r.embedding ?? [],
  createdAt: r.created_at,
  ingestedAt: r.ingested_at,
});

const toCluster = (r: ClusterRow): IssuesCluster => ({
  id: r.id,
  organizationId: r.organization_id,
  label: r.label,
  summary: r.summary,
  icon: r.icon,
  centroid: r.centroid,
  embedding: r.embedding ?? [],
  bestSimilarity: r.best_similarity,
  issuesCount: r.issues_count,
  lastIssueAt: r.last_issue_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SORT_COLUMN: Record<ClusterOrderBy, string> = {
  updatedAt: isoSortKey('updated_at'),
  createdAt: isoSortKey('created_at'),
  issues: `lpad(issues_count::text, 10, '0')`,
};

/** The organization's highest conversation seq now (`$1`: its id): what a full clustering read is at or below it. */
const HIGHEST_SEQ = '(SELECT coalesce(max(seq), 0) FROM conversations WHERE organization_id = $1)';

@Injectable()
export class SqlConversationRepository extends ConversationRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async upsert(conversations: Conversation[]): Promise<void> {
    if (conversations.length === 0) return;
    const rows = conversations.map((c) => ({
      organization_id: c.organizationId,
      id: c.id,
      subject: c.subject,
      source: c.source,
      url: c.url,
      attributes: c.attributes,
      parts: c.parts,
      created_at: c.createdAt.toISOString(),
      ingested_at: c.ingestedAt.toISOString(),
    }));
    await this.db.query(
      `INSERT INTO conversations (organization_id, id, subject, source, url, attributes, parts, created_at, ingested_at)
       SELECT organization_id, id, subject, source, url, attributes, parts, created_at, ingested_at
         FROM jsonb_to_recordset($1::jsonb) AS x(organization_id text, id text, subject text, source text, url text, attributes jsonb,
           parts jsonb, created_at timestamptz, ingested_at timestamptz)
       ON CONFLICT (organization_id, id) DO UPDATE SET subject = EXCLUDED.subject, source = EXCLUDED.source, url = EXCLUDED.url,
         attributes = EXCLUDED.attributes, parts = EXCLUDED.parts, created_at = EXCLUDED.created_at,
         ingested_at = EXCLUDED.ingested_at, processed_at = NULL`,
      [JSON.stringify(rows)],
    );
  }

  async find(organizationId: string, id: string): Promise<Conversation | null> {
    const rows: ConversationRow[] = await this.db.query('SELECT * FROM conversations WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows[0] ? toConversation(rows[0]) : null;
  }

  async findMany(organizationId: string, ids: string[]): Promise<Conversation[]> {
    if (ids.length === 0) return [];
    const rows: ConversationRow[] = await this.db.query('SELECT * FROM conversations WHERE organization_id = $1 AND id = ANY($2::text[])', [
      organizationId,
      [...new Set(ids)],
    ]);
    return rows.map(toConversation);
  }

  async list(organizationId: string, source: string | undefined, page: PageRequest): Promise<Page<Conversation>> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (source !== undefined) where += ` AND source = $${params.push(source)}`;
    const result = await keysetPage<ConversationRow>(
      this.db,
      `SELECT * FROM conversations WHERE ${where}`,
      params,
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)], direction: 'desc' },
      page,
    );
    return mapPage(result, toConversation);
  }

  async unprocessed(organizationId: string, limit: number): Promise<Conversation[]> {
    const rows: ConversationRow[] = await this.db.query(
      'SELECT * FROM conversations WHERE organization_id = $1 AND processed_at IS NULL ORDER BY ingested_at, id LIMIT $2',
      [organizationId, limit],
    );
    return rows.map(toConversation);
  }

  async everyConversation(organizationId: string): Promise<Conversation[]> {
    const rows: ConversationRow[] = await this.db.query('SELECT * FROM conversations WHERE organization_id = $1 ORDER BY ingested_at, id', [
      organizationId,
    ]);
    return rows.map(toConversation);
  }

  async replaceDocumentFrequencies(organizationId: string, counts: Map<string, number>): Promise<void> {
    await this.db.query('DELETE FROM conversation_terms WHERE organization_id = $1', [organizationId]);
    await this.addDocumentFrequencies(organizationId, counts);
  }

  async waitingOrganizations(before: Date): Promise<string[]> {
    const rows: { organization_id: string }[] = await this.db.query(
      'SELECT DISTINCT organization_id FROM conversations WHERE processed_at IS NULL AND ingested_at < $1 LIMIT 1000',
      [before],
    );
    return rows.map((r) => r.organization_id);
  }

  async lockOrganization(organizationId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('conversations:' || $1))`, [organizationId]);
  }

  async markProcessed(
    organizationId: string,
    conversations: { id: string; ingestedAt: Date; counted?: Counted }[],
    at: Date,
  ): Promise<void> {
    // Only the content that was processed: a conversation re-ingested meanwhile stays waiting. What was counted
    // is recorded either way (it is in the frequencies now, and comes out when the conversation is counted anew).
    await this.db.query(
      `UPDATE conversations c
          SET processed_at = CASE WHEN c.ingested_at = x.ingested_at THEN $3 ELSE c.processed_at END,
              counted = COALESCE(x.counted, c.counted)
         FROM jsonb_to_recordset($2::jsonb) AS x(id text, ingested_at timestamptz, counted jsonb)
        WHERE c.organization_id = $1 AND c.id = x.id`,
      [
        organizationId,
        JSON.stringify(
          conversations.map((c) => ({
            id: c.id,
            ingested_at: c.ingestedAt.toISOString(),
            counted: c.counted ? { terms: c.counted.terms, embedding: c.counted.embedding && rounded(c.counted.embedding) } : null,
          })),
        ),
        at,
      ],
    );
  }

  async processedCount(organizationId: string): Promise<number> {
    const [{ n }]: { n: number }[] = await this.db.query(
      'SELECT count(*)::int AS n FROM conversations WHERE organization_id = $1 AND processed_at IS NOT NULL',
      [organizationId],
    );
    return n;
  }

  async documentFrequencies(organizationId: string, terms: string[]): Promise<Map<string, number>> {
    if (terms.length === 0) return new Map();
    const rows: { term: string; df: number }[] = await this.db.query(
      'SELECT term, df FROM conversation_terms WHERE organization_id = $1 AND term = ANY($2::text[])',
      [organizationId, terms],
    );
    return new Map(rows.map((r) => [r.term, r.df]));
  }

  async addDocumentFrequencies(organizationId: string, counts: Map<string, number>): Promise<void> {
    if (counts.size === 0) return;
    const sorted = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)); // one order for every writer: no deadlock
    await this.db.query(
      `INSERT INTO conversation_terms (organization_id, term, df)
       SELECT $1, t, n FROM unnest($2::text[], $3::int[]) AS x(t, n)
       ON CONFLICT (organization_id, term) DO UPDATE SET df = conversation_terms.df + EXCLUDED.df`,
      [organizationId, sorted.map(([t]) => t), sorted.map(([, n]) => n)],
    );
  }

  async addEmbeddings(organizationId: string, sum: number[], count: number, algorithm: number): Promise<{ sum: number[]; count: number }> {
    const rows: { sum: number[]; count: number }[] = await this.db.query(
      `INSERT INTO conversation_embedding_sums AS s (organization_id, sum, count, algorithm) VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (organization_id) DO UPDATE SET
         sum = (SELECT jsonb_agg(coalesce((s.sum->>(i - 1))::float8, 0) + coalesce((EXCLUDED.sum->>(i - 1))::float8, 0) ORDER BY i)
                FROM generate_series(1, greatest(jsonb_array_length(s.sum), jsonb_array_length(EXCLUDED.sum))) AS i),
         count = s.count + EXCLUDED.count
       RETURNING sum, count`,
      [organizationId, JSON.stringify(sum), count, algorithm],
    );
    return rows[0];
  }

  async moveIssues(fromClusterId: string, toClusterId: string): Promise<void> {
    await this.db.query('UPDATE conversation_issues SET cluster_id = $2 WHERE cluster_id = $1', [fromClusterId, toClusterId]);
  }

  async allIssues(organizationId: string): Promise<ConversationIssue[]> {
    const rows: IssueRow[] = await this.db.query('SELECT * FROM conversation_issues WHERE organization_id = $1 ORDER BY seq', [
      organizationId,
    ]);
    return rows.map(toIssue);
  }

  async issuePoints(organizationId: string, limit: number): Promise<IssuePoint[]> {
    const rows: { vector: Record<string, number>; embedding: number[] | null }[] = await this.db.query(
      'SELECT vector, embedding FROM conversation_issues WHERE organization_id = $1 ORDER BY seq DESC LIMIT $2',
      [organizationId, limit],
    );
    return rows.reverse().map((r) => ({ vector: r.vector, embedding: r.embedding ?? [] }));
  }

  async replaceClustering(
    organizationId: string,
    clusters: IssuesCluster[],
    issues: ConversationIssue[],
    sums: { sum: number[]; count: number },
    full: ClusteringState,
  ): Promise<void> {
    await this.db.query('DELETE FROM conversation_issues WHERE organization_id = $1', [organizationId]);
    await this.db.query('DELETE FROM conversation_clusters WHERE organization_id = $1', [organizationId]);
    await this.saveClusters(clusters);
    await this.insertIssues(issues);
    await this.db.query(
      `INSERT INTO conversation_embedding_sums (organization_id, sum, count, algorithm, clustered, clustered_at, clustered_seq)
       VALUES ($1, $2::jsonb, $3, $4, $5, $6, ${HIGHEST_SEQ})
       ON CONFLICT (organization_id) DO UPDATE
       SET sum = EXCLUDED.sum, count = EXCLUDED.count, algorithm = EXCLUDED.algorithm, clustered = EXCLUDED.clustered,
           clustered_at = EXCLUDED.clustered_at, clustered_seq = EXCLUDED.clustered_seq`,
      [organizationId, JSON.stringify(sums.sum), sums.count, full.algorithm, full.clustered, full.at],
    );
  }

  async clusteringOf(organizationId: string): Promise<ClusteringState> {
    const rows: { algorithm: number; clustered: number; clustered_at: Date | null }[] = await this.db.query(
      'SELECT algorithm, clustered, clustered_at FROM conversation_embedding_sums WHERE organization_id = $1',
      [organizationId],
    );
    return { algorithm: rows[0]?.algorithm ?? 0, clustered: rows[0]?.clustered ?? 0, at: rows[0]?.clustered_at ?? null };
  }

  async recordFullClustering(organizationId: string, clustered: number, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE conversation_embedding_sums SET clustered = $2, clustered_at = $3, clustered_seq = ${HIGHEST_SEQ}
       WHERE organization_id = $1`,
      [organizationId, clustered, at],
    );
  }

  async organizationsToRefresh(before: Date): Promise<string[]> {
    // As reclusterDue: grown by a REFRESH_PARTS-th since, still below REGROWTH_UNTIL conversations. The growth is
    // counted among the conversations after `clustered_seq` only, and no further than the tenth: an organization
    // that did not grow costs one index probe. Conversations are never deleted one by one and every conversation the
    // last full clustering read is at or below `clustered_seq` (recorded after it), so `clustered` plus those after
    // is at most the organization's count: an organization this asks for is one reclusterDue re-clusters (a job that
    // would do nothing is never started again and again). The count below REGROWTH_UNTIL is bounded the same way, and
    // only made for those that grew. What it cannot see: conversations ingested while a full clustering ran, or
    // waiting behind an organization's first batch (below `clustered_seq` and not read by it). Processing counts
    // them (every ingest asks reclusterDue); this sweep only misses them for an organization that then goes quiet.
    const rows: { organization_id: string }[] = await this.db.query(
      `WITH grown AS MATERIALIZED (
         SELECT s.organization_id FROM conversation_embedding_sums s
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS n FROM (
             SELECT 1 FROM conversations c WHERE c.organization_id = s.organization_id AND c.seq > s.clustered_seq
             LIMIT ceil(s.clustered::numeric / $2)
           ) f
         ) fresh
         WHERE s.clustered < $3 AND coalesce(s.clustered_at, '-infinity') <= $1 AND fresh.n * $2 >= s.clustered
       )
       SELECT g.organization_id FROM grown g
       WHERE (SELECT count(*) FROM (SELECT 1 FROM conversations c WHERE c.organization_id = g.organization_id LIMIT $3) a) < $3
         AND EXISTS (SELECT 1 FROM conversation_issues i WHERE i.organization_id = g.organization_id)
       LIMIT 100`,
      [before, REFRESH_PARTS, REGROWTH_UNTIL],
    );
    return rows.map((r) => r.organization_id);
  }

  async countConversations(organizationId: string): Promise<number> {
    const rows: { n: number }[] = await this.db.query('SELECT count(*)::int AS n FROM conversations WHERE organization_id = $1', [
      organizationId,
    ]);
    return rows[0].n;
  }

  async organizationsBefore(algorithm: number): Promise<string[]> {
    const rows: { organization_id: string }[] = await this.db.query(
      `SELECT DISTINCT i.organization_id FROM conversation_issues i
       LEFT JOIN conversation_embedding_sums s ON s.organization_id = i.organization_id
       WHERE coalesce(s.algorithm, 0) < $1 LIMIT 100`,
      [algorithm],
    );
    return rows.map((r) => r.organization_id);
  }

  async issuesOf(organizationId: string, conversationIds: string[]): Promise<ConversationIssue[]> {
    if (conversationIds.length === 0) return [];
    const rows: IssueRow[] = await this.db.query(
      'SELECT * FROM conversation_issues WHERE organization_id = $1 AND conversation_id = ANY($2::text[])',
      [organizationId, conversationIds],
    );
    return rows.map(toIssue);
  }

  async deleteIssues(ids: string[]): Promise<void> {
    if (ids.length) await this.db.query('DELETE FROM conversation_issues WHERE id = ANY($1::text[])', [ids]);
  }

  async insertIssues(issues: ConversationIssue[]): Promise<void> {
    if (issues.length === 0) return;
    const rows = issues.map((i) => ({
      id: i.id,
      organization_id: i.organizationId,
      conversation_id: i.conversationId,
      cluster_id: i.clusterId,
      title: i.title,
      summary: i.summary,
      source: i.source,
      vector: i.vector,
      embedding: rounded(i.embedding),
      created_at: i.createdAt.toISOString(),
      ingested_at: i.ingestedAt.toISOString(),
    }));
    await this.db.query(
      `INSERT INTO conversation_issues (id, organization_id, conversation_id, cluster_id, title, summary, source, vector, embedding,
         created_at, ingested_at)
       SELECT id, organization_id, conversation_id, cluster_id, title, summary, source, vector, embedding, created_at, ingested_at
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, organization_id text, conversation_id text, cluster_id text, title text,
           summary text, source text, vector jsonb, embedding jsonb, created_at timestamptz, ingested_at timestamptz)`,
      [JSON.stringify(rows)],
    );
  }

  async listIssues(
    organizationId: string,
    filter: { cluster?: string; conversation?: string },
    page: PageRequest,
  ): Promise<Page<ConversationIssue>> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (filter.cluster !== undefined) where += ` AND cluster_id = $${params.push(filter.cluster)}`;
    if (filter.conversation !== undefined) where += ` AND conversation_id = $${params.push(filter.conversation)}`;
    const result = await keysetPage<IssueRow>(
      this.db,
      `SELECT * FROM conversation_issues WHERE ${where}`,
      params,
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)], direction: 'desc' },
      page,
    );
    return mapPage(result, toIssue);
  }

  async findIssue(organizationId: string, id: string): Promise<ConversationIssue | null> {
    const rows: IssueRow[] = await this.db.query('SELECT * FROM conversation_issues WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows[0] ? toIssue(rows[0]) : null;
  }

  async clusters(organizationId: string): Promise<IssuesCluster[]> {
    const rows: ClusterRow[] = await this.db.query(
      'SELECT * FROM conversation_clusters WHERE organization_id = $1 ORDER BY created_at, id',
      [organizationId],
    );
    return rows.map(toCluster);
  }

  async findCluster(organizationId: string, id: string): Promise<IssuesCluster | null> {
    const rows: ClusterRow[] = await this.db.query('SELECT * FROM conversation_clusters WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows[0] ? toCluster(rows[0]) : null;
  }

  async saveClusters(clusters: IssuesCluster[]): Promise<void> {
    if (clusters.length === 0) return;
    const rows = clusters.map((c) => ({
      id: c.id,
      organization_id: c.organizationId,
      label: c.label,
      summary: c.summary,
      icon: c.icon,
      centroid: c.centroid,
      embedding: rounded(c.embedding),
      best_similarity: c.bestSimilarity,
      issues_count: c.issuesCount,
      last_issue_at: c.lastIssueAt?.toISOString() ?? null,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
    }));
    await this.db.query(
      `INSERT INTO conversation_clusters (id, organization_id, label, summary, icon, centroid, embedding, best_similarity, issues_count,
         last_issue_at, created_at, updated_at)
       SELECT id, organization_id, label, summary, icon, centroid, embedding, best_similarity, issues_count, last_issue_at, created_at, updated_at
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, organization_id text, label text, summary text, icon text, centroid jsonb,
           embedding jsonb, best_similarity float8, issues_count int, last_issue_at timestamptz, created_at timestamptz, updated_at timestamptz)
       ON CONFLICT (id) DO UPDATE SET label = EXCLUDED.label, summary = EXCLUDED.summary, icon = EXCLUDED.icon, centroid = EXCLUDED.centroid,
         embedding = EXCLUDED.embedding,
         best_similarity = EXCLUDED.best_similarity, issues_count = EXCLUDED.issues_count, last_issue_at = EXCLUDED.last_issue_at,
         updated_at = EXCLUDED.updated_at`,
      [JSON.stringify(rows)],
    );
  }

  async deleteClusters(ids: string[]): Promise<void> {
    if (ids.length) await this.db.query('DELETE FROM conversation_clusters WHERE id = ANY($1::text[])', [ids]);
  }

  async listClusters(
    organizationId: string,
    q: { orderBy: ClusterOrderBy; order: 'asc' | 'desc'; status?: ClusterStatus; activeSince: Date },
    page: PageRequest,
  ): Promise<Page<IssuesCluster>> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (q.status === 'active') where += ` AND last_issue_at >= $${params.push(q.activeSince)}`;
    if (q.status === 'inactive') where += ` AND (last_issue_at IS NULL OR last_issue_at < $${params.push(q.activeSince)})`;
    const result = await keysetPage<ClusterRow>(
      this.db,
      `SELECT *, ${SORT_COLUMN[q.orderBy]} AS sort_key FROM conversation_clusters WHERE ${where}`,
      params,
      { columns: ['q.sort_key', 'q.id'], shape: ['text', 'text'], keyOf: (r) => [r.sort_key!, r.id], direction: q.order },
      page,
    );
    return mapPage(result, toCluster);
  }

  async clusterFacts(clusterIds: string[], since: Date): Promise<Map<string, ClusterFacts>> {
    const facts = new Map<string, ClusterFacts>(clusterIds.map((id) => [id, { pulseDates: [], sources: {}, conversations: 0 }]));
    if (clusterIds.length === 0) return facts;
    type SourceRow = { cluster_id: string; source: string; n: number; conversations: number };
    type PulseRow = { cluster_id: string; created_at: Date };
    // One after the other: they may share the connection of a unit of work.
    const sources = await this.db.query<SourceRow[]>(
      `SELECT cluster_id, source, count(*)::int AS n, count(DISTINCT conversation_id)::int AS conversations
         FROM conversation_issues WHERE cluster_id = ANY($1::text[]) GROUP BY cluster_id, source`,
      [clusterIds],
    );
    const pulse = await this.db.query<PulseRow[]>(
      'SELECT cluster_id, created_at FROM conversation_issues WHERE cluster_id = ANY($1::text[]) AND created_at >= $2',
      [clusterIds, since],
    );
    for (const r of sources) {
      const f = facts.get(r.cluster_id)!;
      f.sources[r.source] = r.n;
      f.conversations += r.conversations;
    }
    for (const r of pulse) facts.get(r.cluster_id)!.pulseDates.push(r.created_at);
    return facts;
  }

  async rewordIssue(issue: ConversationIssue, to: { title: string; summary: string }): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH i AS (
         UPDATE conversation_issues SET title = $3, summary = $4
         WHERE organization_id = $1 AND id = $2 AND title = $5 AND summary = $6 RETURNING cluster_id),
       c AS (
         UPDATE conversation_clusters SET label = $3, summary = $4
         WHERE id IN (SELECT cluster_id FROM i) AND label = $5 AND summary = $6 RETURNING id)
       SELECT 1 FROM i`,
      [issue.organizationId, issue.id, to.title, to.summary, issue.title, issue.summary],
    );
    if (rows.length === 0) return false;
    await this.bumpVersion(issue.organizationId);
    return true;
  }

  async bumpVersion(organizationId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO conversation_versions (organization_id, version) VALUES ($1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET version = conversation_versions.version + 1`,
      [organizationId],
    );
  }

  async version(organizationId: string): Promise<number> {
    const rows = await this.db.namedQuery<{ version: string }>(
      'conversation-version',
      'SELECT version FROM conversation_versions WHERE organization_id = $1',
      [organizationId],
    );
    return rows[0] ? Number(rows[0].version) : 0;
  }
}
