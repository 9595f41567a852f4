import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { UnreferencedContent } from '../domain/content/files';

/** The (organization, hash) of every page body the revisions reference: trees at any depth and reusable contents. */
const LIVE_DOCUMENTS = `
  SELECT r.organization_id, x.hash FROM revisions r
  CROSS JOIN LATERAL (
    SELECT jsonb_path_query(r.tree::jsonb, 'strict $.**.document') #>> '{}' AS hash
    UNION ALL
    SELECT rc->>'document' FROM jsonb_array_elements(COALESCE(r.reusable_contents, '[]'::jsonb)) rc
  ) x WHERE x.hash IS NOT NULL`;

/** The (organization, hash) of every file's bytes the revisions reference. */
const LIVE_FILES = `
  SELECT r.organization_id, f->>'hash' AS hash FROM revisions r, jsonb_array_elements(r.files) f WHERE f->>'hash' IS NOT NULL`;

/**
 * The collector's SQL. Safety against writers rests on two rules: a writer clears a mark (locking the row)
 * before it relies on a body or bytes that exist, and a removal re-checks, in its own statement, that the
 * row is still marked before the cutoff and that no committed revision references it — a writer holding the
 * row makes the removal wait, then see the mark cleared (docs/deployment.md, "Reclaiming unreferenced bytes").
 */
@Injectable()
export class SqlUnreferencedContent extends UnreferencedContent {
  constructor(private readonly db: Db) {
    super();
  }

  async claimBlobs(organizationId: string, hashes: string[]): Promise<void> {
    const sorted = [...new Set(hashes)].sort();
    if (!sorted.length) return;
    await this.db.query(
      `UPDATE file_blobs SET unreferenced_since = NULL
       WHERE organization_id = $1 AND hash = ANY($2::text[]) AND unreferenced_since IS NOT NULL`,
      [organizationId, sorted],
    );
    await this.db.query(`INSERT INTO file_blobs (organization_id, hash) SELECT $1, h FROM unnest($2::text[]) AS h ON CONFLICT DO NOTHING`, [
      organizationId,
      sorted,
    ]);
  }

  async orphanBlobs(organizationId: string, hashes: string[], at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO file_blobs (organization_id, hash, unreferenced_since) SELECT $1, h, $3 FROM unnest($2::text[]) AS h
       ON CONFLICT DO NOTHING`,
      [organizationId, [...new Set(hashes)].sort(), at],
    );
  }

  async mark(at: Date, limit: number): Promise<{ documents: number; files: number }> {
    const documents = await this.markIn('documents', LIVE_DOCUMENTS, at, limit);
    const files = await this.markIn('file_blobs', LIVE_FILES, at, limit);
    return { documents, files };
  }

  private async markIn(table: 'documents' | 'file_blobs', live: string, at: Date, limit: number): Promise<number> {
    const rows: { marked: string }[] = await this.db.query(
      `WITH live AS MATERIALIZED (SELECT DISTINCT organization_id, hash FROM (${live}) l),
            cleared AS (
              UPDATE ${table} t SET unreferenced_since = NULL FROM live
              WHERE t.unreferenced_since IS NOT NULL AND live.organization_id = t.organization_id AND live.hash = t.hash
              RETURNING 1),
            marked AS (
              UPDATE ${table} t SET unreferenced_since = $1
              WHERE (t.organization_id, t.hash) IN (
                SELECT c.organization_id, c.hash FROM ${table} c
                WHERE c.unreferenced_since IS NULL
                  AND NOT EXISTS (SELECT 1 FROM live WHERE live.organization_id = c.organization_id AND live.hash = c.hash)
                LIMIT $2)
              AND t.unreferenced_since IS NULL
              RETURNING 1)
       SELECT (SELECT count(*) FROM marked) AS marked, (SELECT count(*) FROM cleared) AS cleared`,
      [at, limit],
    );
    return Number(rows[0].marked);
  }

  async sweepDocuments(cutoff: Date, limit: number): Promise<number> {
    const rows: { n: string }[] = await this.db.query(
      `WITH gone AS (
         DELETE FROM documents d
         WHERE (d.organization_id, d.hash) IN (
           SELECT c.organization_id, c.hash FROM documents c WHERE c.unreferenced_since <= $1 LIMIT $2)
         AND d.unreferenced_since <= $1
         AND NOT EXISTS (SELECT 1 FROM (${LIVE_DOCUMENTS}) l WHERE l.organization_id = d.organization_id AND l.hash = d.hash)
         RETURNING d.organization_id, d.hash),
       links AS (DELETE FROM document_links dl USING gone g WHERE dl.organization_id = g.organization_id AND dl.hash = g.hash)
       SELECT count(*) AS n FROM gone`,
      [cutoff, limit],
    );
    return Number(rows[0].n);
  }

  async sweepFiles(cutoff: Date, limit: number, remove: (organizationId: string, hash: string) => Promise<void>): Promise<number> {
    return this.db.transaction(async (em) => {
      // (In a CTE: TypeORM answers a bare DELETE … RETURNING with [rows, count].)
      const gone: { organization_id: string; hash: string }[] = await em.query(
        `WITH gone AS (DELETE FROM file_blobs b
         WHERE (b.organization_id, b.hash) IN (
           SELECT c.organization_id, c.hash FROM file_blobs c WHERE c.unreferenced_since <= $1 LIMIT $2)
         AND b.unreferenced_since <= $1
         AND NOT EXISTS (SELECT 1 FROM (${LIVE_FILES}) l WHERE l.organization_id = b.organization_id AND l.hash = b.hash)
         RETURNING b.organization_id, b.hash)
         SELECT organization_id, hash FROM gone ORDER BY organization_id, hash`,
        [cutoff, limit],
      );
      // The rows stay locked until the bytes are gone: a writer claiming them waits, then stores them anew.
      for (const g of gone) await remove(g.organization_id, g.hash);
      return gone.length;
    });
  }
}
